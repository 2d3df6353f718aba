/**
 * Source fields (url, title, work, date, archive...) from the wikitext inside one `<ref>`.
 *
 * wtf_wikipedia parses citation templates ({{cite web}}, {{cite news}}, {{citation}}, ...) into their
 * parameters with wiki markup already removed from the values ("[[The Guardian]]" -> "The Guardian"), so
 * it does that part; citation-templates.ts turns the parameters into fields (URL, identifiers, pages...).
 * It does not give the URL of a bare-link ref (`[http://x.y title]` or a plain `http://...`), which we take
 * from its external links or, failing that, a URL pattern.
 */
import { wtf } from './wtf.js';
import {
  Bibliography,
  citeFields,
  fillIds,
  googleBooksUrl,
  identifiersInText,
  identifiersOfTemplate,
  identifiersOfUrl,
  identifierTemplateKind,
  isCitationTemplateName,
  normaliseParams,
  readShortCitation,
  shortCitationsIn,
  templateNameOf,
  type Params,
} from './citation-templates.js';
import { DEAD_LINK_TEMPLATES, normTemplateName, SHORT_CITATION_TEMPLATES } from './wikitext-syntax.js';
import type { CitationIdentifiers, CitationSource } from './types.js';

/** The slice of wtf_wikipedia's API used here (its bundled types say `object`). */
interface WtfDoc {
  references(): { json(): Record<string, unknown> }[];
  templates(): { json(): Record<string, unknown> }[];
  links(): { json(): Record<string, unknown> }[];
  text(): string;
}

/** Characters of a ref's content read for its source fields. */
export const MAX_REF_PARSE_CHARS = 16 * 1024;

const ARCHIVE_TEMPLATES = /^(webarchive|wayback|web archive|archive\.is|webcite|cbignore)$/i;
const BARE_URL = /(?:https?:)?\/\/[^\s|\]\[<>{}"]+/i;

export interface RefSourceFields {
  source: CitationSource;
  /** A {{dead link}} template inside the ref (where editors usually put it). */
  deadLinkTag: boolean;
}

/**
 * The source of one ref. `bibliography` (built on first use) links a short footnote inside the ref
 * (`<ref>{{harvnb|Smith|2010|p=5}}</ref>`) to its full entry.
 */
export function readRefSource(content: string, raw: string, name?: string, bibliography?: () => Bibliography): RefSourceFields {
  const source: CitationSource = { raw };
  if (name) source.name = name;
  // wtf_wikipedia's sentence split is quadratic in text without a sentence end: a 200 KB ref of unclosed
  // links took 38 s (a tester's finding). A citation is a few hundred characters, a long quote a few KB; only
  // the first MAX_REF_PARSE_CHARS are read for its fields (the raw ref is kept whole).
  const doc = wtf(content.length > MAX_REF_PARSE_CHARS ? content.slice(0, MAX_REF_PARSE_CHARS) : content) as unknown as WtfDoc;
  const all = [...doc.references(), ...doc.templates()].map((r) => normaliseParams(r.json()));
  const isArchive = (t: Params) => ARCHIVE_TEMPLATES.test(t['template'] ?? '');
  const isShort = (t: Params) => SHORT_CITATION_TEMPLATES.has(templateNameOf(t));
  const isIdTemplate = (t: Params) => identifierTemplateKind(templateNameOf(t)) !== undefined;
  // wtf_wikipedia knows the English cite templates (reported as `template: citation`); others ({{vcite
  // journal}}, de.wikipedia's {{Internetquelle}} / {{Literatur}}) come out as plain templates, with their
  // parameters just the same
  const cites = all.filter((t) => !isShort(t) && !isIdTemplate(t) && !isArchive(t) && (t['template'] === 'citation' || isCitationTemplateName(templateNameOf(t)) || t['url']));
  const cite = cites.find((c) => c['url']) ?? cites.find((c) => c['title']) ?? cites[0];
  if (cite) Object.assign(source, citeFields(cite));

  if (!source.url) {
    const link = doc.links().map((l) => normaliseParams(l.json())).find((l) => l['type'] === 'external' && l['site']);
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
  if (!source.url && cite) {
    // url={{Google books|...}}: wtf_wikipedia keeps the template apart from the parameter
    const books = all.map(googleBooksUrl).find(Boolean);
    if (books) source.url = books;
  }
  // protocol-relative links ("[//www.x.org ...]") are https on Wikipedia
  if (source.url?.startsWith('//')) source.url = `https:${source.url}`;

  // identifiers: the chosen template's, then the ref's other templates' and identifier templates'
  // ({{doi|...}}, {{ISBN|...}}, {{cite pmid|...}}), then ones written in its text, then a resolver URL
  const ids: CitationIdentifiers = { ...source.ids };
  for (const t of all) {
    if (isIdTemplate(t)) fillIds(ids, identifiersOfTemplate(t));
    else if (t !== cite && cites.includes(t)) fillIds(ids, citeFields(t).ids ?? {});
  }
  fillIds(ids, identifiersInText(doc.text()));
  fillIds(ids, identifiersOfUrl(source.url));
  if (Object.keys(ids).length) source.ids = ids;
  else delete source.ids;

  const archive = all.find(isArchive);
  if (archive) {
    source.archiveUrl ??= archive['url'];
    source.archiveDate ??= archive['date'];
  }
  const deadLinkTag = all.some((t) => DEAD_LINK_TEMPLATES.has(normTemplateName(t['template'] ?? '')));

  // a ref that is only a short footnote ({{harvnb|Smith|2010|p=5}}): the fields of its full entry
  // (the ref's own link, e.g. to the cited page of a Google Books copy, stays its URL)
  if (!cite && bibliography) {
    const short = shortCitationsIn(content)[0];
    const linked = short ? shortSource(short, bibliography()) : undefined;
    if (linked?.fullEntry) {
      const own = { url: source.url, ids: source.ids };
      Object.assign(source, linked);
      if (own.url) source.url = own.url;
      if (own.ids) source.ids = fillIds({ ...own.ids }, linked.ids ?? {});
    } else if (linked?.pages) source.pages = linked.pages;
  }
  return { source: dropEmpty(source), deadLinkTag };
}

/**
 * A short footnote's source: the fields of the bibliography entry it points at (with the footnote's own
 * page), or just the footnote when no entry matches.
 */
export function readShortSource(raw: string, bibliography: Bibliography): CitationSource {
  return dropEmpty({ ...shortSource(raw, bibliography), raw });
}

function shortSource(raw: string, bibliography: Bibliography): Omit<CitationSource, 'raw'> {
  const short = readShortCitation(raw);
  if (!short) return {};
  const entry = bibliography.find(short);
  const out: Omit<CitationSource, 'raw'> = {};
  if (entry) {
    const { raw: _entryRaw, name: _name, ...fields } = readRefSource(entry.raw, entry.raw).source;
    Object.assign(out, fields, { fullEntry: entry.raw });
    delete out.pages;
  }
  if (short.pages) out.pages = short.pages;
  return out;
}

function plain(s: string): string {
  return s.replace(/'{2,}/g, '').replace(/\s+/g, ' ').trim();
}

function dropEmpty(s: CitationSource): CitationSource {
  for (const k of Object.keys(s) as (keyof CitationSource)[]) if (s[k] === undefined || s[k] === '') delete s[k];
  return s;
}
