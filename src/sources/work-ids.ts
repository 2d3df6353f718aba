/**
 * Identifiers of cited works (DOI, arXiv id, PubMed id; and, as Wikipedia's cite templates give them,
 * PubMed Central, handle, bibcode, JSTOR, Semantic Scholar, ISBN, ISSN, OCLC): found in reference text or
 * in a resolver URL, and turned into the landing page the audit fetches (the DOI resolver's redirect, the
 * arXiv abstract page, the PubMed page...). Catalogue ids (ISBN, ISSN, OCLC) have no page with the work's
 * text: they only make the "no URL" reason honest. DOI syntax is checked with doi-utils (Crossref's recommended pattern); arXiv and PubMed
 * ids have short fixed grammars (arXiv's identifier scheme since 2007 and the older archive/number form;
 * PubMed: a number after "PMID").
 */
import { doi as doiUtils } from 'doi-utils';

export interface WorkIds {
  /** e.g. "10.1038/nphys1170", as written (DOIs are case-insensitive). */
  doi?: string;
  /** e.g. "2101.00001", "2101.00001v2" or "hep-th/9901001", as written. */
  arxiv?: string;
  /** PubMed id, digits only. */
  pmid?: string;
  /** PubMed Central id, digits only (without "PMC"). */
  pmc?: string;
  /** Handle System id, e.g. "1721.1/12345". */
  hdl?: string;
  /** Astrophysics Data System bibcode, e.g. "2007Cell..130..395C". */
  bibcode?: string;
  /** JSTOR stable id. */
  jstor?: string;
  /** Semantic Scholar corpus id. */
  s2cid?: string;
  /** Catalogue identifiers: they name a book or a periodical, not a page with the work's text. */
  isbn?: string;
  issn?: string;
  oclc?: string;
}

/** Identifiers with a landing page about the work itself (what the audit can fetch), in resolution order. */
export const RESOLVABLE_IDS = ['doi', 'arxiv', 'pmc', 'pmid', 'hdl', 'bibcode', 'jstor', 's2cid'] as const;
export type WorkIdType = (typeof RESOLVABLE_IDS)[number];

/** One identifier written in a text, with its [start, end) offsets there. */
export interface FoundWorkId {
  type: WorkIdType;
  id: string;
  start: number;
  end: number;
}

export const LANDING_BASE = {
  doi: 'https://doi.org/',
  arxiv: 'https://arxiv.org/abs/',
  pmid: 'https://pubmed.ncbi.nlm.nih.gov/',
  pmc: 'https://pmc.ncbi.nlm.nih.gov/articles/PMC',
  hdl: 'https://hdl.handle.net/',
  bibcode: 'https://ui.adsabs.harvard.edu/abs/',
  jstor: 'https://www.jstor.org/stable/',
  s2cid: 'https://api.semanticscholar.org/CorpusID:',
} as const;

const DOI_HOSTS = new Set(['doi.org', 'dx.doi.org', 'www.doi.org']);
const ARXIV_HOSTS = new Set(['arxiv.org', 'www.arxiv.org', 'export.arxiv.org']);
const ARXIV_ID = /^(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)$/;

/** The landing page of an identifier: what the audit fetches for a reference that has no URL. */
export function landingUrl(type: WorkIdType, id: string): string {
  if (type === 'doi') return LANDING_BASE.doi + id.split('/').map(encodeURIComponent).join('/');
  if (type === 'arxiv') return LANDING_BASE.arxiv + id;
  if (type === 'pmid') return `${LANDING_BASE.pmid}${id}/`;
  if (type === 'pmc') return `${LANDING_BASE.pmc}${id}/`;
  if (type === 'bibcode') return `${LANDING_BASE.bibcode}${encodeURIComponent(id)}/abstract`;
  if (type === 'hdl') return LANDING_BASE.hdl + id.split('/').map(encodeURIComponent).join('/');
  return LANDING_BASE[type] + encodeURIComponent(id);
}

/**
 * The identifier the audit resolves first: a DOI names the published version, then arXiv, the PubMed
 * Central full text, the PubMed abstract, then the other landing pages (handle, ADS, JSTOR, Semantic Scholar).
 */
export function primaryId(ids: WorkIds | undefined): { type: WorkIdType; id: string } | undefined {
  if (!ids) return undefined;
  for (const type of RESOLVABLE_IDS) {
    const id = ids[type];
    if (id) return { type, id };
  }
  return undefined;
}

/**
 * Why a reference without a URL or a resolvable identifier cannot be read, in words: a book known by its
 * ISBN (or OCLC number), a periodical by its ISSN, or nothing at all.
 */
export function noTextReason(ids: WorkIds | undefined): string {
  if (ids?.isbn) return `a book (ISBN ${ids.isbn}): its page text is not available to check against`;
  if (ids?.oclc) return `a catalogued work (OCLC ${ids.oclc}): its page text is not available to check against`;
  if (ids?.issn) return `only the periodical is identified (ISSN ${ids.issn}): no page with the cited text`;
  return 'the citation has no URL and no DOI, arXiv or PubMed id';
}

/**
 * The identifier a resolver URL stands for (https://doi.org/10.x/y, arxiv.org/abs/<id> or /pdf/<id>,
 * pubmed.ncbi.nlm.nih.gov/<id>/, www.ncbi.nlm.nih.gov/pubmed/<id>); undefined for any other URL. Only
 * the resolvers themselves count: a publisher URL that happens to contain a DOI is cited as a URL.
 */
export function workIdFromUrl(url: string | undefined): { type: WorkIdType; id: string } | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.toLowerCase();
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return undefined;
  }
  if (DOI_HOSTS.has(host)) {
    const id = doiUtils.normalize(`https://doi.org${path}`, { strict: true });
    return id ? { type: 'doi', id } : undefined;
  }
  if (ARXIV_HOSTS.has(host)) {
    const m = /^\/(?:abs|pdf)\/(.+?)(?:\.pdf)?\/?$/.exec(path);
    return m && ARXIV_ID.test(m[1]!) ? { type: 'arxiv', id: m[1]! } : undefined;
  }
  if (host === 'pubmed.ncbi.nlm.nih.gov' || host === 'www.ncbi.nlm.nih.gov' || host === 'ncbi.nlm.nih.gov') {
    const m = (host === 'pubmed.ncbi.nlm.nih.gov' ? /^\/(\d{1,9})\/?$/ : /^\/pubmed\/(\d{1,9})\/?$/).exec(path);
    return m ? { type: 'pmid', id: m[1]! } : undefined;
  }
  return undefined;
}

/** `{doi: ...}` etc. from a resolver URL, or undefined. */
export function workIdsFromUrl(url: string | undefined): WorkIds | undefined {
  const one = workIdFromUrl(url);
  return one ? { [one.type]: one.id } : undefined;
}

// Candidates; each is then checked (DOI: doi-utils) and trimmed of the punctuation that ends the sentence.
const DOI_IN_TEXT = /\b(?:doi:\s*)?(10\.\d{4,9}\/[^\s"<>]+)/giu;
const ARXIV_IN_TEXT = /\barXiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[A-Z]{2})?\/\d{7}(?:v\d+)?)\b/gi;
const PMID_IN_TEXT = /\bPMID:?\s*(\d{1,9})\b/g;

/**
 * Identifiers written in `text` ("doi:10.1000/xyz", "https://doi.org/..." is left to URL detection,
 * a bare "10.1000/xyz", "arXiv:2101.00001", "PMID: 12345"), in text order, without overlaps.
 */
export function findWorkIds(text: string): FoundWorkId[] {
  const found: FoundWorkId[] = [];
  for (const m of text.matchAll(DOI_IN_TEXT)) {
    // A DOI inside a URL (https://doi.org/10...) belongs to that URL, which is cited as a whole.
    const before = text.slice(Math.max(0, m.index - 1), m.index);
    if (before === '/') continue;
    const id = trimDoi(m[1]!);
    if (!doiUtils.validatePart(id)) continue;
    const start = m.index;
    const end = m.index + m[0].length - (m[1]!.length - id.length);
    found.push({ type: 'doi', id, start, end });
  }
  for (const m of text.matchAll(ARXIV_IN_TEXT)) found.push({ type: 'arxiv', id: m[1]!, start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(PMID_IN_TEXT)) found.push({ type: 'pmid', id: m[1]!, start: m.index, end: m.index + m[0].length });
  found.sort((a, b) => a.start - b.start);
  const out: FoundWorkId[] = [];
  for (const f of found) if (!out.length || f.start >= out[out.length - 1]!.end) out.push(f);
  return out;
}

/**
 * Sentence punctuation after a DOI is not part of it ("see 10.1000/xyz." / "(doi:10.1000/xyz)"). A closing
 * bracket is kept when the DOI opened it: "10.1002/(SICI)1097-4636" is a real DOI shape.
 */
function trimDoi(s: string): string {
  let out = s;
  for (;;) {
    const last = out[out.length - 1];
    if (last && '.,;:\'"'.includes(last)) out = out.slice(0, -1);
    else if (last && ')]}'.includes(last)) {
      const open = { ')': '(', ']': '[', '}': '{' }[last]!;
      if (count(out, open) < count(out, last)) out = out.slice(0, -1);
      else return out;
    } else return out;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** All identifiers of a reference, first of each type (from its text and from a resolver URL). */
export function workIdsOf(text: string, urls: readonly string[] = []): WorkIds | undefined {
  const ids: WorkIds = {};
  for (const u of urls) {
    const one = workIdFromUrl(u);
    if (one && !ids[one.type]) ids[one.type] = one.id;
  }
  for (const f of findWorkIds(text)) if (!ids[f.type]) ids[f.type] = f.id;
  return Object.keys(ids).length ? ids : undefined;
}

export const WORK_ID_NAMES: Record<WorkIdType, string> = {
  doi: 'DOI',
  arxiv: 'arXiv id',
  pmid: 'PubMed id',
  pmc: 'PubMed Central id',
  hdl: 'handle',
  bibcode: 'bibcode',
  jstor: 'JSTOR id',
  s2cid: 'Semantic Scholar id',
};
