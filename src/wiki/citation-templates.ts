/**
 * Fields of English Wikipedia's citation templates, as the source of a citation needs them: URL, archive,
 * url-status, identifiers (DOI, PMID, PMC, arXiv, ISBN, ISSN, bibcode, S2CID, JSTOR, handle, OCLC), title,
 * work, date, pages, quote; and the link from a short footnote (`{{sfn}}`, `{{harvnb}}`...) to its full
 * entry in the bibliography.
 *
 * wtf_wikipedia does the template parsing: it reads every citation template (the CS1/CS2 family `{{cite
 * journal|web|book|news|conference|report|thesis|press release|arxiv|biorxiv|...}}`, `{{citation}}`; `{{vcite
 * ...}}` and other unknown ones as plain templates), with any spacing, case and line breaks, and strips wiki
 * markup from the values. Here its parameters get one spelling (lower case, `_`/space -> `-`, old and
 * de.wikipedia aliases) and become fields. What it does not keep is read from the raw text: the `ref=` of a
 * bibliography entry (a nested `{{sfnref}}`), and the short footnotes' positional author/year parameters.
 */
import { findWorkIds, workIdFromUrl, type WorkIds } from '../sources/work-ids.js';
import { CITATION_NEEDED_TEMPLATES, normTemplateName, SHORT_CITATION_TEMPLATES, templateEnd } from './wikitext-syntax.js';
import type { CitationIdentifiers, CitationSource } from './types.js';

export type Params = Record<string, string>;

/** The identifier kinds a citation can carry, in the order they are reported. */
export const IDENTIFIER_KINDS = ['doi', 'pmid', 'pmc', 'arxiv', 'isbn', 'issn', 'bibcode', 's2cid', 'jstor', 'hdl', 'oclc'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

const WORK_KEYS = ['work', 'website', 'newspaper', 'journal', 'magazine', 'periodical', 'encyclopedia', 'encyclopaedia', 'dictionary', 'agency'];
const URL_KEYS = ['url', 'chapter-url', 'contribution-url', 'section-url', 'article-url', 'entry-url'];
const PAGE_KEYS = ['page', 'pages', 'at', 'p', 'pp', 'loc'];

/**
 * Parameter names as citation templates spell them in any era: "accessdate", "access-date", "access_date",
 * "ArchiveURL" all become "access-date" / "archive-url"; "DOI" becomes "doi", "eprint" (cite arXiv) "arxiv".
 * Values are kept as trimmed strings; empty ones are dropped; the first spelling of a name wins.
 */
export function normaliseParams(json: Record<string, unknown>): Params {
  const out: Params = {};
  for (const [key, value] of Object.entries(json)) {
    if (typeof value !== 'string') continue;
    const v = value.trim();
    if (!v) continue;
    let k = key.trim().toLowerCase().replace(/[_ ]+/g, '-');
    k = ALIASES[k] ?? k;
    out[k] ??= v;
  }
  // a positional parameter (`{{cite doi|10.1/x}}`, `{{doi|10.1/x}}`) comes as `list`
  const list = json['list'];
  if (Array.isArray(list) && typeof list[0] === 'string' && list[0].trim()) out['1'] ??= list[0].trim();
  return out;
}

const ALIASES: Record<string, string> = {
  accessdate: 'access-date',
  archiveurl: 'archive-url',
  archivedate: 'archive-date',
  deadurl: 'dead-url',
  urlstatus: 'url-status',
  chapterurl: 'chapter-url',
  contributionurl: 'contribution-url',
  sectionurl: 'section-url',
  publicationdate: 'publication-date',
  eprint: 'arxiv',
  eissn: 'issn',
  isbn13: 'isbn',
  'pubmed-id': 'pmid',
  pubmed: 'pmid',
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
  seiten: 'pages',
  seite: 'page',
  zitat: 'quote',
};

/** The template's name: wtf_wikipedia reports the CS1 family as `template: citation` with the name in `type`. */
export function templateNameOf(p: Params): string {
  return normTemplateName(p['type'] ?? p['template'] ?? '');
}

/**
 * Citation templates that carry a source: the CS1/CS2 family (`cite ...`, `citation`), Vancouver `vcite`
 * / `vancite`, `cite doi` / `cite pmid` leftovers, de.wikipedia's `Internetquelle` / `Literatur`. Not the
 * maintenance templates whose names start alike (`citation needed`, `cite check`...).
 */
export function isCitationTemplateName(name: string): boolean {
  const n = normTemplateName(name);
  if (CITATION_NEEDED_TEMPLATES.has(n) || /^(cite|citation)[ -]?(needed|check|required|style|error)/.test(n)) return false;
  return /^(cite\b|cite[a-z]|citation$|citation\/|vcite|vancite|internetquelle$|literatur$)/.test(n);
}

/** Identifier templates written in a ref (`{{doi|10.1/x}}`, `{{PMID|123}}`, `{{ISBN|...}}`...), by kind. */
const ID_TEMPLATES: Record<string, IdentifierKind> = {
  doi: 'doi',
  pmid: 'pmid',
  pmc: 'pmc',
  arxiv: 'arxiv',
  isbn: 'isbn',
  issn: 'issn',
  eissn: 'issn',
  bibcode: 'bibcode',
  s2cid: 's2cid',
  jstor: 'jstor',
  hdl: 'hdl',
  oclc: 'oclc',
  'cite doi': 'doi',
  'cite pmid': 'pmid',
  'cite pmc': 'pmc',
  'cite isbn': 'isbn',
  'cite arxiv id': 'arxiv',
};

/** The kind of an identifier template (`{{doi|...}}`, `{{cite pmid|...}}`), or undefined. */
export function identifierTemplateKind(name: string): IdentifierKind | undefined {
  return ID_TEMPLATES[normTemplateName(name)];
}

/** One identifier value as Wikipedia writes it, cleaned ("PMC123" -> "123", "doi:10.1/x" -> "10.1/x"), or undefined when it is not one. */
export function cleanIdentifier(kind: IdentifierKind, value: string | undefined): string | undefined {
  if (!value) return undefined;
  let v = value.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
  switch (kind) {
    case 'doi':
      v = v.replace(/^(?:doi:\s*|https?:\/\/(?:dx\.)?doi\.org\/)/i, '').replace(/[.,;]+$/, '');
      return /^10\.\d+(?:\.\d+)*\/\S/.test(v) ? v.replace(/\s.*$/, '') : undefined;
    case 'pmid':
    case 's2cid':
    case 'oclc':
      v = v.replace(/^(?:pmid|s2cid|oclc)\s*:?\s*/i, '');
      return /^\d+$/.test(v) ? v : undefined;
    case 'pmc':
      v = v.replace(/^pmc\s*/i, '');
      return /^\d+$/.test(v) ? v : undefined;
    case 'arxiv':
      v = v.replace(/^arxiv:\s*/i, '');
      return /^(\d{4}\.\d{4,5}(v\d+)?|[a-z][a-z.-]*(\.[A-Z]{2})?\/\d{7}(v\d+)?)$/i.test(v) ? v : undefined;
    case 'isbn':
      v = v.replace(/^isbn(?:-1[03])?\s*:?\s*/i, '');
      return /^[\d-‐– ]{9,17}[\dXx]$/.test(v) ? v : undefined;
    case 'issn':
      v = v.replace(/^e?issn\s*:?\s*/i, '');
      return /^\d{4}[-–]?\d{3}[\dXx]$/.test(v) ? v : undefined;
    case 'jstor':
      return /^[\w./-]+$/.test(v) ? v : undefined;
    case 'hdl':
      v = v.replace(/^(?:hdl:\s*|https?:\/\/hdl\.handle\.net\/)/i, '');
      return /^[\w.-]+\/\S+$/.test(v) ? v : undefined;
    case 'bibcode':
      return /^\d{4}\S{14,15}$/.test(v) ? v : undefined;
  }
}

/** The identifiers among a citation template's parameters (`doi=`, `pmid=`, `biorxiv=` as a DOI, `id=ISBN ...`). */
export function identifiersOf(p: Params): CitationIdentifiers {
  const ids: CitationIdentifiers = {};
  for (const kind of IDENTIFIER_KINDS) {
    const v = cleanIdentifier(kind, p[kind]);
    if (v) ids[kind] = v;
  }
  // bioRxiv / medRxiv ids are DOIs (10.1101/...), sometimes written without the prefix
  for (const k of ['biorxiv', 'medrxiv']) {
    const v = p[k];
    if (v && !ids.doi) ids.doi = cleanIdentifier('doi', /^10\./.test(v) ? v : `10.1101/${v}`);
  }
  if (p['id']) fillIds(ids, identifiersInText(p['id']));
  return dropEmptyIds(ids);
}

/** The identifier an identifier template (`{{doi|...}}`, `{{ISBN|...}}`, `{{cite doi|...}}`) gives. */
export function identifiersOfTemplate(p: Params): CitationIdentifiers {
  const kind = identifierTemplateKind(templateNameOf(p));
  if (!kind) return {};
  // wtf_wikipedia reads {{ISBN|x}} as `id`, the others as a positional `list`
  const v = cleanIdentifier(kind, p['1'] ?? p['id'] ?? p[kind]);
  return v ? { [kind]: v } : {};
}

const ISBN_IN_TEXT = /\bISBN(?:-1[03])?\s*:?\s*((?:97[89][-‐– ]?)?(?:\d[-‐– ]?){9}[\dXx])\b/g;
const PMC_IN_TEXT = /\bPMC\s?(\d{3,9})\b/g;
const OCLC_IN_TEXT = /\bOCLC\s*:?\s*(\d{2,12})\b/g;
const ISSN_IN_TEXT = /\bE?ISSN\s*:?\s*(\d{4}[-–]\d{3}[\dXx])\b/g;
const JSTOR_IN_TEXT = /\bJSTOR\s*:?\s*(\d{2,12})\b/g;
const BIBCODE_IN_TEXT = /\bBibcode\s*:?\s*(\d{4}\S{14,15})(?=[\s.,;]|$)/g;

/**
 * Identifiers written in the text of a free-form ref: MediaWiki's "ISBN ..." / "PMID ..." magic words (and
 * what `{{ISBN}}`, `{{doi}}`... render to), "doi:10.1/x", "arXiv:2101.00001", "PMC123", "OCLC 123".
 */
export function identifiersInText(text: string): CitationIdentifiers {
  const ids: CitationIdentifiers = {};
  for (const f of findWorkIds(text)) {
    const v = cleanIdentifier(f.type as IdentifierKind, f.id);
    if (v) ids[f.type] ??= v;
  }
  const first = (re: RegExp, kind: IdentifierKind) => {
    for (const m of text.matchAll(re)) {
      const v = cleanIdentifier(kind, m[1]);
      if (v) {
        ids[kind] ??= v;
        return;
      }
    }
  };
  first(ISBN_IN_TEXT, 'isbn');
  first(PMC_IN_TEXT, 'pmc');
  first(OCLC_IN_TEXT, 'oclc');
  first(ISSN_IN_TEXT, 'issn');
  first(JSTOR_IN_TEXT, 'jstor');
  first(BIBCODE_IN_TEXT, 'bibcode');
  return ids;
}

/** The identifier a resolver URL stands for (https://doi.org/10.1/x, a PubMed or arXiv page). */
export function identifiersOfUrl(url: string | undefined): CitationIdentifiers {
  const one = workIdFromUrl(url);
  return one ? { [one.type]: one.id } : {};
}

/** Adds to `into` the kinds it lacks (the first of each kind wins). */
export function fillIds(into: CitationIdentifiers, from: CitationIdentifiers): CitationIdentifiers {
  for (const kind of IDENTIFIER_KINDS) if (!into[kind] && from[kind]) into[kind] = from[kind];
  return into;
}

function dropEmptyIds(ids: WorkIds): WorkIds {
  for (const k of Object.keys(ids) as (keyof WorkIds)[]) if (!ids[k]) delete ids[k];
  return ids;
}

/** Source fields of one citation template's (normalised) parameters; undefined fields are left out. */
export function citeFields(c: Params): Omit<CitationSource, 'raw'> {
  const out: Omit<CitationSource, 'raw'> = {};
  const set = <K extends keyof typeof out>(k: K, v: (typeof out)[K] | undefined) => {
    if (v !== undefined && v !== '') out[k] = v;
  };
  set('url', URL_KEYS.map((k) => c[k]).find(Boolean));
  set('title', c['title'] ?? c['chapter'] ?? c['contribution'] ?? c['entry'] ?? c['trans-title']);
  set('work', WORK_KEYS.map((k) => c[k]).find(Boolean));
  set('publisher', c['publisher']);
  set('date', c['date'] ?? c['publication-date'] ?? c['year']);
  set('accessDate', c['access-date']);
  set('archiveUrl', c['archive-url']);
  set('archiveDate', c['archive-date']);
  const status = (c['url-status'] ?? '').toLowerCase();
  const dead = (c['dead-url'] ?? '').toLowerCase();
  if (/^(dead|unfit|usurped|deviated)$/.test(status) || /^(yes|true|y)$/.test(dead)) out.deadUrl = true;
  else if (status === 'live' || /^(no|false|n)$/.test(dead)) out.deadUrl = false;
  const ids = identifiersOf(c);
  if (Object.keys(ids).length) out.ids = ids;
  set('pages', PAGE_KEYS.map((k) => c[k]).find(Boolean));
  set('quote', c['quote']);
  return out;
}

/**
 * A Google Books link written as a template (`url={{Google books|id|page=5}}`, which wtf_wikipedia leaves
 * out of the `url` parameter): the URL MediaWiki renders.
 */
export function googleBooksUrl(p: Params): string | undefined {
  if (!/^google ?books$/.test(templateNameOf(p))) return undefined;
  const id = p['1'] ?? p['id'];
  if (!id || !/^[\w-]+$/.test(id)) return undefined;
  const page = p['page'] ?? p['p'];
  return `https://books.google.com/books?id=${id}${page && /^\d+$/.test(page) ? `&pg=PA${page}` : ''}`;
}

// --- raw template parameters -------------------------------------------------------------------------

/**
 * A template's parameters read from its raw wikitext (`{{name|a|b|k=v}}`): split at the top-level `|`
 * (not inside nested `{{ }}` or `[[ ]]`), positional ones in order, named ones by trimmed lower-case name.
 * Used where wtf_wikipedia's reading loses what we need (nested `ref={{sfnref|...}}`, positional names).
 */
export function templateParams(raw: string): { name: string; positional: string[]; named: Params } {
  const inner = raw.replace(/^\{\{/, '').replace(/\}\}$/, '');
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const two = inner.slice(i, i + 2);
    if (two === '{{' || two === '[[') {
      depth++;
      i++;
    } else if ((two === '}}' || two === ']]') && depth > 0) {
      depth--;
      i++;
    } else if (inner[i] === '|' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  const [name = '', ...rest] = parts;
  const positional: string[] = [];
  const named: Params = {};
  for (const part of rest) {
    const eq = /^([^=]*?)=([\s\S]*)$/.exec(part);
    // "=" inside a nested template or link does not make the parameter named
    if (eq && !/[{[]/.test(eq[1]!)) {
      const k = eq[1]!.trim().toLowerCase().replace(/[_ ]+/g, '-');
      if (!(k in named)) named[k] = eq[2]!.trim();
    } else positional.push(part.trim());
  }
  return { name: normTemplateName(name), positional, named };
}

/** Link and formatting markup out of a name: "[[John Smith|Smith]]" -> "Smith", "''X''" -> "X". */
function plainName(s: string): string {
  return s
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\[\[(?:[^|\]]*\|)?([^\]]*)\]\]/g, '$1')
    .replace(/'{2,}/g, '')
    .replace(/\{\{[^{}]*\}\}/g, '')
    .trim();
}

/** Anchor key as `CITEREF` + names + year, compared loosely: case, spaces and punctuation ignored. */
function anchorKey(names: readonly string[], year: string): string {
  return (names.slice(0, 4).map(plainName).join('') + year).normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

// --- short footnotes ---------------------------------------------------------------------------------

export interface ShortCitation {
  /** Author (or editor) last names, up to four, as written. */
  names: string[];
  year: string;
  /** `p=` / `pp=` / `loc=` (or `page=`, `pages=`, `at=`). */
  pages?: string;
}

/**
 * `{{sfn|Smith|Jones|2010|p=5}}`, `{{harvnb|Smith|2010|pp=5–6}}`, `{{sfnm|1a1=Smith|1y=2010|1p=4|...}}`
 * (its first work): names, year and page; undefined for another template or one without a year.
 */
export function readShortCitation(raw: string): ShortCitation | undefined {
  const { name, positional, named } = templateParams(raw);
  if (!LINKING_TEMPLATES.has(name)) return undefined;
  let names: string[];
  let year: string | undefined;
  let pages: string | undefined;
  if (name === 'harvs') {
    // {{harvs|nb|last=Smith|last2=Jones|year=2005a|year2=2005b}}: its first work
    names = [1, 2, 3, 4].map((i) => named[i === 1 ? 'last' : `last${i}`] ?? named[i === 1 ? 'author' : `author${i}`] ?? named[`last${i}`] ?? named[`author${i}`]).filter((v): v is string => !!v);
    year = named['year'] ?? named['year1'];
    pages = named['p'] ?? named['pp'] ?? named['loc'];
  } else if (name === 'sfnm' || name === 'sfnmp') {
    names = [1, 2, 3, 4].map((i) => named[`1a${i}`]).filter((v): v is string => !!v);
    year = named['1y'];
    pages = named['1p'] ?? named['1pp'] ?? named['1loc'];
  } else {
    const pos = positional.filter(Boolean);
    year = pos.length > 1 ? pos[pos.length - 1] : undefined;
    names = pos.slice(0, -1);
    pages = ['p', 'pp', 'loc', 'page', 'pages', 'at'].map((k) => named[k]).find(Boolean);
  }
  if (!year || !names.length) return undefined;
  return { names: names.map(plainName), year: plainName(year), ...(pages ? { pages: plainName(pages) } : {}) };
}

/**
 * Templates that link to a bibliography entry: the footnote-making ones (SHORT_CITATION_TEMPLATES) and,
 * inside a ref, the in-text forms ("Smith (2010)": `{{harvtxt}}`, `{{harvs}}`...).
 */
const LINKING_TEMPLATES = new Set([
  ...SHORT_CITATION_TEMPLATES,
  'harvtxt', 'harvcoltxt', 'harvs', 'harvard citation', 'harvard citation no brackets', 'harvard citation text',
]);

/** A full citation of the article's bibliography that short footnotes can point at. */
export interface BibliographyEntry {
  /** The template's wikitext. */
  raw: string;
  /** Offset in the article's wikitext. */
  start: number;
}

const CITE_OPEN = /\{\{\s*(?:template\s*:\s*)?(cite|citation|vcite|vancite)/gi;
const AUTHOR_KEYS = ['last', 'surname', 'author-last', 'author-surname', 'author'];
const EDITOR_KEYS = ['editor-last', 'editor-surname', 'editor'];

/**
 * Every citation template of an article, keyed by the anchor a short footnote links to (MediaWiki's
 * `CITEREF` + up to four author last names + year, or the entry's `ref={{sfnref|...}}` / `{{harvid}}`).
 * Entries in a "References" / "Bibliography" / "Sources" list are the usual targets; a cite template
 * inside a ref has the same anchor on the rendered page, so it counts too. `ref=none` has no anchor.
 */
export class Bibliography {
  private readonly byKey = new Map<string, BibliographyEntry>();
  /** First author + year, for footnotes that name fewer authors than the entry; ambiguous keys map to null. */
  private readonly byFirst = new Map<string, BibliographyEntry | null>();

  constructor(wikitext: string) {
    // comments blanked, offsets kept
    const text = wikitext.replace(/<!--[\s\S]*?-->/g, (m) => ' '.repeat(m.length));
    for (const m of text.matchAll(CITE_OPEN)) {
      const start = m.index;
      const end = templateEnd(text, start);
      const raw = text.slice(start, end);
      const params = templateParams(raw);
      if (!isCitationTemplateName(params.name)) continue;
      const entry = { raw, start };
      const keys = entryKeys(params.named);
      if (!keys.length) continue;
      for (const key of keys) if (!this.byKey.has(key)) this.byKey.set(key, entry);
      const first = firstKey(params.named);
      if (first) this.byFirst.set(first, this.byFirst.has(first) && this.byFirst.get(first) !== entry ? null : entry);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The entry a short footnote points at, or undefined. */
  find(short: ShortCitation): BibliographyEntry | undefined {
    return this.byKey.get(anchorKey(short.names, short.year)) ?? this.byFirst.get(anchorKey(short.names.slice(0, 1), short.year)) ?? undefined;
  }
}

function yearOf(p: Params): string | undefined {
  const year = plainName(p['year'] ?? '');
  if (year) return year;
  return /\b(\d{4}[a-z]?)\b/.exec(plainName(p['date'] ?? p['publication-date'] ?? ''))?.[1];
}

/** `last` -> last / last1 (first name), last2...; `author-last` -> author-last, author-last1, author1-last... */
function nameKeys(base: string, i: number): string[] {
  const dash = base.indexOf('-');
  const out = [`${base}${i}`];
  if (dash > 0) out.push(`${base.slice(0, dash)}${i}${base.slice(dash)}`);
  return i === 1 ? [base, ...out] : out;
}

/** Author (else editor) last names of an entry, in order (`vauthors` / `authors` lists too). */
function lastNames(p: Params): string[] {
  const pick = (bases: string[], lists: string[]) => {
    const names: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const n = bases.flatMap((b) => nameKeys(b, i)).map((k) => p[k]).find(Boolean);
      if (!n) break;
      names.push(n);
    }
    for (const l of lists) if (!names.length && p[l]) names.push(...vancouverNames(p[l]));
    return names;
  };
  const authors = pick(AUTHOR_KEYS, ['vauthors', 'authors']);
  return authors.length ? authors : pick(EDITOR_KEYS, ['veditors', 'editors']);
}

/** "Smith J, Jones KL, ((World Health Organization))" -> ["Smith", "Jones", "World Health Organization"]. */
function vancouverNames(s: string): string[] {
  return s
    .split(/,|;/)
    .map((x) => x.replace(/[()]/g, '').trim().replace(/\s+[A-Z]{1,3}$/, ''))
    .filter(Boolean);
}

function entryKeys(p: Params): string[] {
  const ref = p['ref']?.trim();
  if (ref && /^none$/i.test(ref)) return [];
  const keys: string[] = [];
  if (ref && /^\{\{/.test(ref)) {
    const inner = templateParams(ref);
    if (/^(sfnref|harvid)$/.test(inner.name) && inner.positional.length > 1) {
      keys.push(anchorKey(inner.positional.slice(0, -1), inner.positional[inner.positional.length - 1]!));
    }
  } else if (ref && /^CITEREF/i.test(ref)) keys.push(anchorKey([ref.slice(7)], ''));
  const year = yearOf(p);
  const names = lastNames(p);
  if (year && names.length) keys.push(anchorKey(names, year));
  return keys;
}

function firstKey(p: Params): string | undefined {
  const year = yearOf(p);
  const names = lastNames(p);
  return year && names.length ? anchorKey(names.slice(0, 1), year) : undefined;
}

/** The short footnote templates inside a ref's content (`<ref>{{harvnb|Smith|2010|p=5}}.</ref>`), raw, in order. */
export function shortCitationsIn(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/\{\{\s*([^|{}\n]*)/g)) {
    if (LINKING_TEMPLATES.has(normTemplateName(m[1]!))) out.push(content.slice(m.index, templateEnd(content, m.index)));
  }
  return out;
}

/** The page a `{{rp|...}}` written after a ref gives (`{{rp|12}}`, `{{rp|page=12}}`, `{{rp|at=fig. 2}}`). */
export function rpPages(raw: string): string | undefined {
  const { positional, named } = templateParams(raw);
  const v = named['page'] ?? named['pages'] ?? named['p'] ?? named['pp'] ?? named['at'] ?? named['1'] ?? positional[0];
  return v ? plainName(v) || undefined : undefined;
}
