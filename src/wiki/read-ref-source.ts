/**
 * Source fields (url, title, work, date, archive...) from the wikitext inside one `<ref>`.
 *
 * wtf_wikipedia parses citation templates ({{cite web}}, {{cite news}}, {{citation}}, ...) into their
 * parameters with wiki markup already removed from the values ("[[The Guardian]]" -> "The Guardian"), so
 * it does that part. It does not give the URL of a bare-link ref (`[http://x.y title]` or a plain
 * `http://...`), which we take from its external links or, failing that, a URL pattern.
 */
import wtf from 'wtf_wikipedia';
import { DEAD_LINK_TEMPLATES, normTemplateName } from './wikitext-syntax.js';
import type { CitationSource } from './types.js';

/** The slice of wtf_wikipedia's API used here (its bundled types say `object`). */
interface WtfDoc {
  references(): { json(): Record<string, unknown> }[];
  templates(): { json(): Record<string, unknown> }[];
  links(): { json(): Record<string, unknown> }[];
}

type Params = Record<string, string>;

const WORK_KEYS = ['work', 'website', 'newspaper', 'journal', 'magazine', 'periodical', 'encyclopedia', 'encyclopaedia', 'agency'];
const ARCHIVE_TEMPLATES = /^(webarchive|wayback|web archive|archive\.is|webcite|cbignore)$/i;
const BARE_URL = /(?:https?:)?\/\/[^\s|\]\[<>{}"]+/i;

export interface RefSourceFields {
  source: CitationSource;
  /** A {{dead link}} template inside the ref (where editors usually put it). */
  deadLinkTag: boolean;
}

export function readRefSource(content: string, raw: string, name?: string): RefSourceFields {
  const source: CitationSource = { raw };
  if (name) source.name = name;
  const doc = wtf(content) as unknown as WtfDoc;
  const cites = doc.references().map((r) => params(r.json()));
  const templates = doc.templates().map((t) => params(t.json()));

  // wtf_wikipedia knows the English cite templates; other wikis' ({{Internetquelle}}, {{Literatur}} on
  // de.wikipedia) come out as plain templates, with their parameters just the same
  const isArchive = (t: Params) => ARCHIVE_TEMPLATES.test(t['template'] ?? '');
  const candidates = [...cites, ...templates.filter((t) => t['url'] && !isArchive(t))];
  const cite = candidates.find((c) => c['url']) ?? cites.find((c) => c['title']);
  if (cite) fillFromCite(source, cite);

  if (!source.url) {
    const link = doc.links().map((l) => params(l.json())).find((l) => l['type'] === 'external' && l['site']);
    if (link) {
      source.url = link['site'];
      const text = link['text'] ? plain(link['text']) : '';
      if (text && !source.title) source.title = text;
    }
  }
  if (!source.url) {
    // wtf_wikipedia only sees bracketed links; a plain URL in the ref is the cited URL too
    const m = BARE_URL.exec(content);
    if (m) source.url = m[0].replace(/[.,;:)]+$/, '');
  }
  // protocol-relative links ("[//www.x.org ...]") are https on Wikipedia
  if (source.url?.startsWith('//')) source.url = `https:${source.url}`;
  const archive = templates.find(isArchive);
  if (archive) {
    source.archiveUrl ??= archive['url'];
    source.archiveDate ??= archive['date'];
  }
  const deadLinkTag = templates.some((t) => DEAD_LINK_TEMPLATES.has(normTemplateName(t['template'] ?? '')));
  return { source: dropEmpty(source), deadLinkTag };
}

function fillFromCite(source: CitationSource, c: Params): void {
  source.url = c['url'] ?? c['chapter-url'];
  source.title = c['title'] ?? c['chapter'];
  source.work = WORK_KEYS.map((k) => c[k]).find(Boolean);
  source.publisher = c['publisher'];
  source.date = c['date'] ?? c['publication-date'] ?? c['year'];
  source.accessDate = c['access-date'];
  source.archiveUrl = c['archive-url'];
  source.archiveDate = c['archive-date'];
  const status = (c['url-status'] ?? '').toLowerCase();
  const dead = (c['dead-url'] ?? '').toLowerCase();
  if (/^(dead|unfit|usurped|deviated)$/.test(status) || /^(yes|true|y)$/.test(dead)) source.deadUrl = true;
  else if (status === 'live' || /^(no|false|n)$/.test(dead)) source.deadUrl = false;
}

/**
 * Parameter names as cite templates spell them in any era: "accessdate", "access-date", "access_date",
 * "ArchiveURL" all become "access-date" / "archive-url". Values are kept as strings only.
 */
function params(json: Record<string, unknown>): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(json)) {
    if (typeof value !== 'string') continue;
    const v = value.trim();
    if (!v) continue;
    let k = key.toLowerCase().replace(/[_ ]/g, '-');
    k = ALIASES[k] ?? k;
    out[k] ??= v;
  }
  return out;
}

const ALIASES: Record<string, string> = {
  accessdate: 'access-date',
  archiveurl: 'archive-url',
  archivedate: 'archive-date',
  deadurl: 'dead-url',
  urlstatus: 'url-status',
  chapterurl: 'chapter-url',
  publicationdate: 'publication-date',
  // de.wikipedia's {{Internetquelle}} / {{Literatur}}
  titel: 'title',
  werk: 'work',
  sammelwerk: 'work',
  hrsg: 'publisher',
  verlag: 'publisher',
  datum: 'date',
  jahr: 'year',
  zugriff: 'access-date',
  'archiv-url': 'archive-url',
  'archiv-datum': 'archive-date',
  online: 'url',
};

function plain(s: string): string {
  return s.replace(/'{2,}/g, '').replace(/\s+/g, ' ').trim();
}

function dropEmpty(s: CitationSource): CitationSource {
  for (const k of Object.keys(s) as (keyof CitationSource)[]) if (s[k] === undefined || s[k] === '') delete s[k];
  return s;
}
