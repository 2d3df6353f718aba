/**
 * What the two Wikimedia dump readers share: page ids and URLs from titles, the dump files of a path,
 * disambiguation templates, and the language code of a wiki's database name.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { byCodePoint, statOrThrow } from './read-lines.js';

/** A title as a document id: underscores for spaces, as in Wikipedia URLs (and FEVER's page ids). */
export function wikiPageId(title: string): string {
  return title.trim().replace(/ /g, '_');
}

/**
 * A redirect's target as a document id: without its `#section`, first letter upper case (titles are
 * first-letter case-insensitive on Wikipedia; wikitext may write `#REDIRECT [[united Kingdom]]`).
 */
export function redirectTargetId(target: string): string {
  const t = target.split('#')[0]!.trim();
  return wikiPageId(t.charAt(0).toUpperCase() + t.slice(1));
}

/** `https://en.wikipedia.org/wiki/Main_Page` (siteinfo's base) -> `https://en.wikipedia.org/wiki/`. */
export function wikiBaseOf(mainPageUrl: string): string {
  const i = mainPageUrl.lastIndexOf('/');
  return i >= 0 ? mainPageUrl.slice(0, i + 1) : mainPageUrl;
}

/** `enwiki` -> `en`, `zh_yuewiki` -> `zh-yue`; undefined for other projects (wiktionary, commons). */
export function langOfDbName(dbname: string): string | undefined {
  const m = /^([a-z_]+?)wiki$/.exec(dbname);
  return m ? m[1]!.replace(/_/g, '-') : undefined;
}

export function wikipediaBase(lang: string): string {
  return `https://${lang}.wikipedia.org/wiki/`;
}

export function pageUrl(base: string, id: string): string {
  return base + encodeURIComponent(id).replace(/%2F/g, '/').replace(/%3A/g, ':').replace(/%2C/g, ',');
}

/**
 * Disambiguation templates of the larger editions (lower case). A page transcluding one is a list of
 * meanings, not an article: recorded, not indexed. English also marks them with many "... disambiguation"
 * variants ({{hndis}} for people, {{geodis}} for places), matched by suffix.
 */
const DISAMBIGUATION = new Set([
  'dab', 'disamb', 'disambig', 'disambiguation', 'hndis', 'geodis', 'numberdis', 'letter-numbercombdisambig', 'schooldis', 'mil-unit-dis',
  'begriffsklärung', 'homonymie', 'disambigua', 'desambiguación', 'desambiguacion', 'desambiguação', 'doorverwijspagina', 'неоднозначность',
  'многозначность', 'förgrening', 'täsmennyssivu', 'ujednoznacznienie', 'aimai', '曖昧さ回避', '消歧义', '消歧義', 'disambig-zh', '동음이의', 'rozcestník',
  'egyért', 'anlam ayrımı', 'desambiguació', 'pertsona-izen', 'flertydig', 'peker', 'неоднозначність', 'homonimo', 'wieloznaczność',
]);

export function isDisambiguationTemplate(name: string): boolean {
  const n = name.trim().toLowerCase().replace(/_/g, ' ');
  // "Template:Disambiguation" (CirrusSearch lists templates with their namespace) -> "disambiguation".
  const bare = n.includes(':') ? n.slice(n.lastIndexOf(':') + 1).trim() : n;
  return DISAMBIGUATION.has(bare) || bare.endsWith(' disambiguation');
}

const TEMPLATE_NAME = /\{\{\s*([^|{}\n]+?)\s*(?:\||\}\})/g;

/** Whether wikitext transcludes a disambiguation template. */
export function wikitextIsDisambiguation(wikitext: string): boolean {
  for (const m of wikitext.matchAll(TEMPLATE_NAME)) if (isDisambiguationTemplate(m[1]!)) return true;
  return false;
}

const LINK = /\[\[([^\][|#\n]+)(?:#[^\][|\n]*)?(?:\|[^\]\n]*)?\]\]/g;

/**
 * Article link targets of wikitext as page ids, in order, without duplicates (the evidence hop stage
 * follows them). Links into other namespaces (`File:`, `Category:`) and other wikis are left out.
 */
export function wikitextLinks(wikitext: string, namespaces: ReadonlySet<string>, max = 500): string[] {
  const out = new Set<string>();
  for (const m of wikitext.matchAll(LINK)) {
    const target = m[1]!.trim();
    if (!target) continue;
    const colon = target.indexOf(':');
    if (colon === 0 || (colon > 0 && namespaces.has(target.slice(0, colon).trim().toLowerCase()))) continue;
    const id = wikiPageId(target.charAt(0).toUpperCase() + target.slice(1));
    out.add(id);
    if (out.size >= max) break;
  }
  return [...out];
}

/** The dump file itself, or the dump files of a folder (`pattern`) in name order. */
export async function dumpFiles(path: string, pattern: RegExp, what: string): Promise<string[]> {
  const info = await statOrThrow(path);
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => pattern.test(n) && !n.startsWith('.')).sort(byCodePoint);
  if (names.length === 0) throw new Error(`no ${what} files in directory: ${path}`);
  return names.map((n) => join(path, n));
}

/** `.xml`, `.xml.bz2`, `.xml.gz`, and the split dumps' `.xml-p1p41242.bz2`. */
export const MEDIAWIKI_FILE = /\.xml(-p\d+p\d+)?(\.bz2|\.gz)?$/i;
export const CIRRUS_FILE = /\.(json|jsonl|ndjson)(\.gz)?$/i;
