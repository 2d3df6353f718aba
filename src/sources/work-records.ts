/**
 * What is cited, resolved through open metadata APIs rather than a landing page alone:
 *
 *   DOI          Crossref `GET /works/{doi}` (title, JATS abstract, landing URL); DataCite `GET /dois/{doi}` when
 *                Crossref has no abstract (DataCite registers datasets, software, repository records); with
 *                `openAbstracts`, OpenAlex's abstract (`abstract_inverted_index`) when neither has one
 *   PMID / PMC   Europe PMC REST search (`EXT_ID:<pmid> AND SRC:MED` / `PMCID:PMC<n>`, resultType core): the
 *                abstract, and the open-access full text (`/{PMCID}/fullTextXML`, JATS) when there is one
 *   arXiv        the arXiv API (`/query?id_list=<id>`, Atom): the abstract; the PDF is read by the caller
 *   ISBN         Open Library `GET /isbn/{isbn}.json`: the book's record, for an honest "book: page text not
 *                available" (a catalogue record is not the cited pages)
 *
 * Every base URL is a setting (`sources.apis`), so tests point them at loopback servers and enterprise users at
 * mirrors; a base the user sets is trusted by the SSRF guard (by host name, as written: an intranet mirror),
 * cited URLs never are. The contact e-mail goes where each API asks for it (Crossref and OpenAlex `mailto`,
 * NCBI/Europe PMC `email`, and the User-Agent), and each API host gets one request at a time, spaced by its
 * polite interval. Answers are cached (PageCache) by request URL; "no answer" is never cached.
 */
import { newDOMParser } from '../corpus/linkedom.js';
import type { Document } from '../corpus/types.js';
import { fetchApi, type ApiFetchPolicy, type ApiResult } from './api-fetch.js';
import type { PageCache } from './page-cache.js';
import { pageToDocument } from './page-text.js';
import { WORK_API_BASES, type WorkApiBases, type WorkApiName } from './work-api-bases.js';
import { userAgent } from './user-agent.js';
import { markupText } from './markup-text.js';

// The endpoints live in work-api-bases.ts (light: the settings and the CLI's help read them).
export { WORK_API_BASES, type WorkApiBases, type WorkApiName };

/**
 * Least time between two requests to one API (ms): Crossref's polite pool and Europe PMC allow ~10/s, NCBI 3/s
 * without a key, arXiv asks for one request every 3 s, Open Library for no bulk crawling.
 */
export const POLITE_INTERVAL_MS: Record<WorkApiName, number> = {
  doi: 0,
  crossref: 100,
  datacite: 100,
  openalex: 100,
  europepmc: 150,
  arxiv: 3000,
  arxivPdf: 3000,
  pmc: 350,
  pubmed: 350,
  arxivAbs: 3000,
  openlibrary: 1000,
};

export interface WorkRecordOptions {
  bases?: Partial<WorkApiBases>;
  /** Contact e-mail for the APIs' polite pools. */
  email?: string;
  /** Ask OpenAlex for an abstract when Crossref has none (a third party reading the DOI; off unless allowed). */
  openAbstracts?: boolean;
  /** Overrides every API's polite interval (tests: 0). */
  intervalMs?: number;
  policy?: ApiFetchPolicy;
  cache?: PageCache;
  /** Replay only (`--offline`): answers from the cache whatever their age, and no request for what it lacks. */
  offline?: boolean;
}

export type WorkRecord =
  | { ok: true; document: Document; api: WorkApiName; apiUrl: string; fullText: boolean; pdfUrl?: string; landingUrl?: string }
  | { ok: false; api: WorkApiName; apiUrl: string; notFound: boolean; status: 'dead' | 'unreachable' | 'unsupported' | 'blocked' | 'not-found'; reason: string; transient?: boolean };

export function apiBases(opts: WorkRecordOptions): WorkApiBases {
  const out = { ...WORK_API_BASES } as WorkApiBases;
  for (const [k, v] of Object.entries(opts.bases ?? {})) if (v) out[k as WorkApiName] = v.replace(/\/+$/, '');
  return out;
}

/**
 * Origins (scheme, host, port) of the bases the user replaced: trusted by the SSRF guard for these requests
 * only, so that a redirect from a mirror to another port or scheme of its host is checked like any address.
 */
export function trustedOrigins(opts: WorkRecordOptions): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(opts.bases ?? {})) {
    if (!v || v === WORK_API_BASES[k as WorkApiName]) continue;
    try {
      out.push(new URL(v).origin);
    } catch {
      /* a bad base fails at its first request */
    }
  }
  return [...new Set(out)];
}

/** The User-Agent with its contact (sources/user-agent.ts: Wikimedia's policy wants one). */
export { userAgent };

async function get(api: WorkApiName, url: string, opts: WorkRecordOptions, accept: string): Promise<ApiResult> {
  if (opts.offline) return { ok: false, url, finalUrl: url, status: 'unreachable', reason: `could not reach ${new URL(url).host}: offline, and the answer is not in the cache`, transient: true };
  const policy: ApiFetchPolicy = {
    ...opts.policy,
    allowOrigins: [...(opts.policy?.allowOrigins ?? []), ...trustedOrigins(opts)],
    userAgent: userAgent(opts.email),
    minIntervalMs: opts.intervalMs ?? POLITE_INTERVAL_MS[api],
  };
  return fetchApi(url, policy, accept);
}

/** One API answer -> a document (or a failure), cached by request URL. */
async function cached(api: WorkApiName, url: string, opts: WorkRecordOptions, accept: string, read: (body: string) => WorkRecord): Promise<WorkRecord> {
  const hit = await opts.cache?.get(url, undefined, opts.offline);
  if (hit?.ok) return { ok: true, document: hit.document, api, apiUrl: url, fullText: hit.contentType.includes('fulltext') };
  if (hit && !hit.ok && hit.httpStatus === 404) return { ok: false, api, apiUrl: url, notFound: true, status: 'not-found', reason: hit.reason };
  const res = await get(api, url, opts, accept);
  let rec: WorkRecord;
  if (!res.ok) {
    const notFound = res.status === 'dead';
    rec = { ok: false, api, apiUrl: url, notFound, status: notFound ? 'not-found' : res.status, reason: `${new URL(url).host}: ${res.reason}`, ...(res.transient ? { transient: true } : {}) };
  } else {
    try {
      rec = read(res.body);
    } catch (e) {
      rec = { ok: false, api, apiUrl: url, notFound: false, status: 'unsupported', reason: `${new URL(url).host}: unreadable answer (${(e as Error).message})` };
    }
  }
  if (rec.ok) await opts.cache?.put({ ok: true, url, finalUrl: url, fetchedAt: new Date().toISOString(), contentType: rec.fullText ? 'api/fulltext' : 'api/abstract', document: rec.document }).catch(() => undefined);
  else if (!rec.transient && rec.status === 'not-found') await opts.cache?.put({ ok: false, url, finalUrl: url, fetchedAt: new Date().toISOString(), status: 'dead', reason: rec.reason, httpStatus: 404 }).catch(() => undefined);
  return rec;
}

const withParams = (url: string, params: Record<string, string | undefined>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) if (v) u.searchParams.set(k, v);
  return u.href;
};

/** Text of a JATS / HTML fragment (sources/markup-text.ts: linear time on hostile answers). */
export { markupText };

function doc(text: string, title: string, url: string): Document {
  return pageToDocument(text, 'text', url, title);
}

/** DOI -> Crossref's record (title, abstract); with `openAbstracts`, OpenAlex's abstract when Crossref has none. */
export async function crossrefWork(doi: string, opts: WorkRecordOptions, citedUrl: string): Promise<WorkRecord> {
  const b = apiBases(opts);
  const url = withParams(`${b.crossref}/works/${doi.split('/').map(encodeURIComponent).join('/')}`, { mailto: opts.email });
  const rec = await cached('crossref', url, opts, 'application/json', (body) => {
    const j = JSON.parse(body) as { status?: string; message?: { title?: string[]; abstract?: string; URL?: string; 'container-title'?: string[] } };
    const m = j.message ?? {};
    const title = m.title?.[0]?.trim() || doi;
    const abstract = m.abstract ? markupText(m.abstract) : '';
    if (!abstract) return { ok: false, api: 'crossref', apiUrl: url, notFound: false, status: 'unsupported', reason: `Crossref has no abstract for DOI ${doi} ("${title}")` };
    return { ok: true, document: doc(`${title}\n\n${abstract}`, title, citedUrl), api: 'crossref', apiUrl: url, fullText: false, ...(m.URL ? { landingUrl: m.URL } : {}) };
  });
  if (rec.ok || rec.transient) return rec;
  // Not Crossref's (or no abstract there): DataCite registers the other DOIs (datasets, software, Zenodo).
  const dc = await dataciteWork(doi, opts, citedUrl);
  if (dc.ok) return dc;
  const both = { ...rec, reason: `Crossref: ${rec.reason}; DataCite: ${dc.reason}` };
  if (!opts.openAbstracts) return both;
  const alex = await openAlexWork(doi, opts, citedUrl);
  return alex.ok ? alex : { ...both, reason: `${both.reason}; ${alex.reason}` };
}

/** DataCite REST `GET /dois/{doi}` (JSON:API): `data.attributes.titles[].title`, `descriptions[]` of type Abstract, `url`. */
export async function dataciteWork(doi: string, opts: WorkRecordOptions, citedUrl: string): Promise<WorkRecord> {
  const b = apiBases(opts);
  const url = `${b.datacite}/dois/${doi.split('/').map(encodeURIComponent).join('/')}`;
  return cached('datacite', url, opts, 'application/vnd.api+json, application/json', (body) => {
    const j = JSON.parse(body) as { data?: { attributes?: { titles?: { title?: string }[]; descriptions?: { description?: string; descriptionType?: string }[]; url?: string } } };
    const a = j.data?.attributes ?? {};
    const title = a.titles?.find((t) => t.title)?.title?.trim() || doi;
    const abstract = (a.descriptions ?? []).filter((d) => d.descriptionType === 'Abstract' && d.description).map((d) => markupText(d.description!)).join('\n\n');
    if (!abstract) return { ok: false, api: 'datacite', apiUrl: url, notFound: false, status: 'unsupported', reason: `DataCite has no abstract for DOI ${doi} ("${title}")` };
    return { ok: true, document: doc(`${title}\n\n${abstract}`, title, citedUrl), api: 'datacite', apiUrl: url, fullText: false, ...(a.url ? { landingUrl: a.url } : {}) };
  });
}

/** OpenAlex `GET /works/doi:<doi>`: the abstract is an inverted index (word -> positions). */
export async function openAlexWork(doi: string, opts: WorkRecordOptions, citedUrl: string): Promise<WorkRecord> {
  const b = apiBases(opts);
  const url = withParams(`${b.openalex}/works/doi:${doi.split('/').map(encodeURIComponent).join('/')}`, { mailto: opts.email });
  return cached('openalex', url, opts, 'application/json', (body) => {
    const j = JSON.parse(body) as { title?: string; display_name?: string; abstract_inverted_index?: Record<string, number[]> | null };
    const title = (j.title ?? j.display_name ?? doi).trim();
    const words: string[] = [];
    for (const [w, at] of Object.entries(j.abstract_inverted_index ?? {})) for (const i of at) words[i] = w;
    const abstract = words.filter((w) => w !== undefined).join(' ');
    if (!abstract) return { ok: false, api: 'openalex', apiUrl: url, notFound: false, status: 'unsupported', reason: `OpenAlex has no abstract for DOI ${doi}` };
    return { ok: true, document: doc(`${title}\n\n${abstract}`, title, citedUrl), api: 'openalex', apiUrl: url, fullText: false };
  });
}

interface EuropePmcResult {
  pmid?: string;
  pmcid?: string;
  title?: string;
  abstractText?: string;
  isOpenAccess?: string;
  inEPMC?: string;
}

/** PMID or PMC id -> Europe PMC's abstract, and the open-access full text when there is one. */
export async function europePmcWork(type: 'pmid' | 'pmc', id: string, opts: WorkRecordOptions, citedUrl: string): Promise<WorkRecord> {
  const b = apiBases(opts);
  const query = type === 'pmid' ? `EXT_ID:${id} AND SRC:MED` : `PMCID:PMC${id}`;
  const url = withParams(`${b.europepmc}/search`, { query, resultType: 'core', format: 'json', email: opts.email });
  let hit: EuropePmcResult | undefined;
  const rec = await cached('europepmc', url, opts, 'application/json', (body) => {
    const j = JSON.parse(body) as { hitCount?: number; resultList?: { result?: EuropePmcResult[] } };
    // "Not found" only when Europe PMC says so (a result list, empty); an answer without one is unreadable, not cached.
    if (!j.resultList || !Array.isArray(j.resultList.result)) throw new Error('no result list in the answer');
    hit = j.resultList.result[0];
    const name = type === 'pmid' ? `PubMed id ${id}` : `PubMed Central id PMC${id}`;
    if (!hit) return { ok: false, api: 'europepmc', apiUrl: url, notFound: true, status: 'not-found', reason: `cited work not found: Europe PMC has no ${name}` };
    const title = markupText(hit.title ?? '') || name;
    const abstract = markupText(hit.abstractText ?? '');
    if (!abstract) return { ok: false, api: 'europepmc', apiUrl: url, notFound: false, status: 'unsupported', reason: `Europe PMC has no abstract for ${name} ("${title}")` };
    return { ok: true, document: doc(`${title}\n\n${abstract}`, title, citedUrl), api: 'europepmc', apiUrl: url, fullText: false };
  });
  // Open access: the full text (JATS) reads better than the abstract alone.
  if (hit?.pmcid && hit.isOpenAccess === 'Y') {
    const full = await cached('europepmc', `${b.europepmc}/${encodeURIComponent(hit.pmcid)}/fullTextXML`, opts, 'application/xml', (body) => {
      const text = jatsText(body);
      if (!text) throw new Error('no text in the full text XML');
      const title = markupText(hit!.title ?? '') || hit!.pmcid!;
      return { ok: true, document: doc(text, title, citedUrl), api: 'europepmc', apiUrl: `${b.europepmc}/${hit!.pmcid}/fullTextXML`, fullText: true };
    });
    if (full.ok) return full;
  }
  return rec;
}

/** A JATS article's title, abstract and body paragraphs. */
export function jatsText(xml: string): string {
  const d = newDOMParser().parseFromString(xml, 'text/xml');
  const parts: string[] = [];
  const title = d.getElementsByTagName('article-title')[0]?.textContent?.trim();
  if (title) parts.push(title);
  for (const sel of ['abstract', 'body']) {
    const el = d.getElementsByTagName(sel)[0];
    if (!el) continue;
    for (const p of el.getElementsByTagName('p')) {
      const t = (p.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (t) parts.push(t);
    }
  }
  return parts.join('\n\n');
}

/** arXiv id -> the API's Atom entry: title, abstract (`summary`), PDF link. No entry: the id does not exist. */
export async function arxivWork(id: string, opts: WorkRecordOptions, citedUrl: string): Promise<WorkRecord> {
  const b = apiBases(opts);
  const url = withParams(`${b.arxiv}/query`, { id_list: id, max_results: '1' });
  return cached('arxiv', url, opts, 'application/atom+xml', (body) => {
    const d = newDOMParser().parseFromString(body, 'text/xml');
    // Not an Atom feed (an error page): unreadable, never "not found".
    if (!d.getElementsByTagName('feed')[0]) throw new Error('not an Atom feed');
    const entry = d.getElementsByTagName('entry')[0];
    // An unknown id gives an empty feed; a malformed one an entry titled "Error" (its summary says why): that
    // is the id's fault, not the work's absence.
    const title = entry?.getElementsByTagName('title')[0]?.textContent?.replace(/\s+/g, ' ').trim();
    if (entry && title === 'Error') {
      const why = (entry.getElementsByTagName('summary')[0]?.textContent ?? '').replace(/\s+/g, ' ').trim();
      return { ok: false, api: 'arxiv', apiUrl: url, notFound: false, status: 'unsupported', reason: `arXiv refused the id ${id}${why ? `: ${why}` : ''}` };
    }
    if (!entry || !title) return { ok: false, api: 'arxiv', apiUrl: url, notFound: true, status: 'not-found', reason: `cited work not found: arXiv has no arXiv id ${id}` };
    const summary = (entry.getElementsByTagName('summary')[0]?.textContent ?? '').replace(/\s+/g, ' ').trim();
    const pdf = [...entry.getElementsByTagName('link')].find((l) => l.getAttribute('title') === 'pdf')?.getAttribute('href') ?? undefined;
    if (!summary) return { ok: false, api: 'arxiv', apiUrl: url, notFound: false, status: 'unsupported', reason: `arXiv has no abstract for ${id}` };
    return { ok: true, document: doc(`${title}\n\n${summary}`, title, citedUrl), api: 'arxiv', apiUrl: url, fullText: false, ...(pdf ? { pdfUrl: pdf } : {}) };
  });
}

/** Where an arXiv PDF is read: the configured base (a mirror, a test server), never a URL from the feed. */
export function arxivPdfUrl(id: string, opts: WorkRecordOptions): string {
  return `${apiBases(opts).arxivPdf}/${id}`;
}

/** ISBN -> Open Library's record, in words ("Title", publisher, date, pages), or why there is none. */
export async function bookRecord(isbn: string, opts: WorkRecordOptions): Promise<{ found: boolean; text: string; transient?: boolean }> {
  const b = apiBases(opts);
  const clean = isbn.replace(/[^0-9Xx]/g, '');
  const url = `${b.openlibrary}/isbn/${clean}.json`;
  const hit = await opts.cache?.get(url);
  if (hit?.ok) return { found: true, text: hit.document.title };
  const res = await get('openlibrary', url, opts, 'application/json');
  if (!res.ok) return res.status === 'dead' ? { found: false, text: `Open Library has no record of ISBN ${isbn}` } : { found: false, text: `Open Library: ${res.reason}`, ...(res.transient ? { transient: true } : {}) };
  try {
    const j = JSON.parse(res.body) as { title?: string; subtitle?: string; publishers?: string[]; publish_date?: string; number_of_pages?: number };
    const parts = [j.title ? `"${j.title}${j.subtitle ? `: ${j.subtitle}` : ''}"` : undefined, j.publishers?.join(', '), j.publish_date, j.number_of_pages ? `${j.number_of_pages} pages` : undefined].filter(Boolean);
    const text = `Open Library: ${parts.join(', ') || 'a record without title'}`;
    await opts.cache?.put({ ok: true, url, finalUrl: url, fetchedAt: new Date().toISOString(), contentType: 'api/record', document: { id: url, title: text, sentences: [text] } }).catch(() => undefined);
    return { found: true, text };
  } catch {
    return { found: false, text: 'Open Library: unreadable answer' };
  }
}
