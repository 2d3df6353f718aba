/**
 * Citation -> source text. Looked for, in order:
 *   1. the index, by normalised URL (the cited URL, the archive URL, and the original URL inside an
 *      archive URL);
 *   2. the snapshot folder (`--sources DIR`), same URLs;
 *   3. only with `--fetch`: the on-disk cache, then a live fetch (SSRF-guarded); when the page is dead or
 *      unreachable, its archived copy (the citation's archive-url, else the Wayback form). A citation
 *      marked `url-status=dead` with an archive URL goes to the archive first. A page is dead when its
 *      server answers 404/410, or when its name has no DNS answer while the archive's server answers; no
 *      answer at all (offline, a timeout) is `unreachable` ("could not reach ..."), and is not cached.
 * A reference with a DOI, arXiv id or PubMed id and no URL is looked up at the identifier's landing page
 * (https://doi.org/<doi>, which redirects to the publisher; arxiv.org/abs/<id>; PubMed Central; pubmed.../<id>/;
 * then handle, ADS bibcode, JSTOR, Semantic Scholar: work-ids.ts `primaryId`). A book known only by its ISBN
 * is `no-url` with a reason saying so (its page text is not available), not "no URL". When the
 * resolver itself answers 404/410, the cited work does not exist: `not-found` with `workNotFound`, which is
 * neither a dead link (the work exists, its page is gone) nor a source that fails to support the claim.
 * PDFs are read page by page (pdf-text.ts); one without a text layer is `unreadable`.
 * Lookups are memoised per reference, by normalised URL: articles cite the same page many times, spelled
 * differently. A page is fetched at most once per resolver even when several citations ask for it at the
 * same moment (in-flight fetches are shared). A failure inside one lookup is that citation's status with a
 * reason, never an exception that would end the whole audit.
 */
import type { Document } from '../corpus/types.js';
import type { Store } from '../store/types.js';
import { normalizeUrl } from '../store/url.js';
import { originalFromArchiveUrl, waybackUrl, WAYBACK_BASE } from './archive.js';
import { fetchPage, type FetchFailureStatus, type FetchPolicy } from './http-fetch.js';
import type { CachedPage, PageCache } from './page-cache.js';
import { pageToDocument, pdfToDocument, urlKey } from './page-text.js';
import type { SnapshotFolder } from './snapshot-folder.js';
import type { ResolvedSource, SourceAttempt, SourceRef, SourceStatus } from './types.js';
import { landingUrl, noTextReason, primaryId, RESOLVABLE_IDS, WORK_ID_NAMES, workIdFromUrl, type WorkIdType } from './work-ids.js';
import { arxivWork, bookRecord, crossrefWork, europePmcWork, trustedOrigins, WORK_API_BASES, type WorkApiName, type WorkRecord, type WorkRecordOptions } from './work-records.js';

/** HTTP statuses that say "ask later", not "no such page": never cached. */
const LATER_STATUS = new Set([429, 502, 503, 504]);

export interface LiveFetchOptions {
  policy?: FetchPolicy;
  cache?: PageCache;
  /** Try the Wayback Machine when the page is dead and the citation has no archive URL (default true). */
  wayback?: boolean;
  waybackBase?: string;
  /**
   * Where to send each request instead (default: the URL itself): a mirror, or a local replay of recorded
   * responses in tests. The SSRF guard checks the routed URL; reports keep the cited one.
   */
  route?: (url: string) => string;
  /**
   * Metadata APIs for identifiers (work-records.ts): Crossref, Europe PMC, arXiv, Open Library, each base a
   * setting; the contact e-mail; OpenAlex abstracts when allowed. Absent: the defaults (public APIs).
   */
  works?: WorkRecordOptions;
  /**
   * Replay only (`--offline`): pages come from the cache whatever their age, and a page not in it is
   * "could not reach" (not cached, never dead) without any request.
   */
  offline?: boolean;
  /**
   * Reads fetched bodies (HTML, text, PDF) into documents; default: on the calling thread. The composition
   * root passes its worker-pool reader (documents/document-reader.ts), so a hostile page is read within
   * budgets off the event loop.
   */
  reader?: PageReader;
}

/** What reads a fetched page or PDF (DocumentReader satisfies it). */
export interface PageReader {
  page(p: { body: string; kind: 'html' | 'text' | 'markdown'; url: string; title?: string }): Promise<Document>;
  pdf(p: { bytes: Uint8Array; url: string; title?: string }): Promise<{ ok: true; document: Document } | { ok: false; reason: string; limit?: boolean }>;
}

export interface SourceResolverOptions {
  store?: Store;
  snapshots?: SnapshotFolder;
  /** Live fetching; absent = off (the default: an audit touches the network only when asked to). */
  fetch?: LiveFetchOptions;
}

type FailureStatus = FetchFailureStatus | 'unreadable';
type FetchedOutcome =
  | { ok: true; document: Document; finalUrl: string; fromCache: boolean }
  | { ok: false; status: FailureStatus; reason: string; httpStatus?: number; finalUrl: string; fromCache: boolean; transient?: boolean; noSuchName?: boolean };

export class SourceResolver {
  private readonly memo = new Map<string, Promise<ResolvedSource>>();
  /** Fetches by page (urlKey of the normalised URL), shared while in flight and after. */
  private readonly fetches = new Map<string, Promise<FetchedOutcome>>();
  constructor(readonly opts: SourceResolverOptions = {}) {}

  resolve(ref: SourceRef): Promise<ResolvedSource> {
    const norm = (u: string | undefined) => (u ? normalizeUrl(u) : null);
    const key = JSON.stringify([norm(ref.url), norm(ref.archiveUrl), ref.deadUrl ?? null, ref.ids ?? null]);
    let hit = this.memo.get(key);
    if (!hit) {
      hit = this.lookup(ref).catch((e: unknown): ResolvedSource => {
        const cited = citedUrl(ref);
        return { status: 'unreachable', ...(cited ? { url: cited } : {}), reason: `source lookup failed: ${(e as Error).message ?? String(e)}`, attempts: [] };
      });
      this.memo.set(key, hit);
    }
    // A shared result still names this citation's own URL.
    const cited = citedUrl(ref);
    return hit.then((r) => (r.url === undefined || r.url === cited || cited === undefined ? r : { ...r, url: cited }));
  }

  private async lookup(ref: SourceRef): Promise<ResolvedSource> {
    const original = ref.archiveUrl ? originalFromArchiveUrl(ref.archiveUrl) : undefined;
    const idUrl = identifierUrl(ref);
    const cited = citedUrl(ref);
    if (!cited) return { status: 'no-url', reason: await this.noUrlReason(ref), attempts: [] };
    const urls = [...new Set([ref.url ?? idUrl, ref.archiveUrl, original].filter((u): u is string => !!u))];
    const attempts: SourceAttempt[] = [];

    if (this.opts.store) {
      for (const url of urls) {
        const docs = await this.opts.store.findDocumentsByUrl(url);
        const doc = docs.find((d) => d.sentences.some((s) => s.trim()));
        attempts.push({ via: 'index', url, outcome: doc ? 'found' : 'not-found' });
        if (doc) return { status: 'found', via: 'index', url: cited, usedUrl: url, docId: doc.id, document: doc, attempts };
      }
    }
    let unsupported: string | undefined;
    let refused: string | undefined;
    let unreadable: string | undefined;
    let missingFile: string | undefined;
    if (this.opts.snapshots) {
      // Saved by identifier: every identifier of the reference has its landing page as its key.
      const byId = ref.url ? [] : RESOLVABLE_IDS.filter((t) => ref.ids?.[t]).map((t) => landingUrl(t, ref.ids![t]!));
      for (const url of [...new Set([...urls, ...byId])]) {
        const hit = await this.opts.snapshots.lookup(url);
        if (!hit.found) {
          if ('missingFile' in hit) missingFile = hit.missingFile;
          attempts.push({ via: 'snapshot', url, outcome: 'not-found', ...('missingFile' in hit ? { reason: hit.missingFile } : {}) });
          continue;
        }
        if ('refused' in hit) {
          refused = hit.refused;
          attempts.push({ via: 'snapshot', url, outcome: 'blocked', reason: hit.refused });
          continue;
        }
        if ('unsupported' in hit) {
          unsupported = hit.unsupported;
          attempts.push({ via: 'snapshot', url, outcome: 'unsupported', reason: hit.unsupported });
          continue;
        }
        if ('unreadable' in hit) {
          unreadable = hit.unreadable;
          attempts.push({ via: 'snapshot', url, outcome: 'unreadable', reason: hit.unreadable });
          continue;
        }
        if (!hit.document.sentences.length) {
          attempts.push({ via: 'snapshot', url, outcome: 'unsupported', reason: 'no text in the saved page' });
          continue;
        }
        attempts.push({ via: 'snapshot', url, outcome: 'found' });
        return { status: 'found', via: 'snapshot', url: cited, usedUrl: url, document: hit.document, attempts };
      }
    }
    if (!this.opts.fetch) {
      const status: SourceStatus = unreadable ? 'unreadable' : unsupported ? 'unsupported' : refused ? 'blocked' : 'not-found';
      return { status, url: cited, reason: unreadable ?? unsupported ?? refused ?? missingFile ?? 'not in the index or the snapshot folder (live fetch is off)', attempts };
    }
    return this.fetchWork(ref, cited, original, attempts, idUrl);
  }

  /** A book's reason names its Open Library record when fetching is on ("book: page text not available"). */
  private async noUrlReason(ref: SourceRef): Promise<string> {
    const isbn = ref.ids?.isbn;
    if (!isbn) return noTextReason(ref.ids);
    const base = noTextReason(ref.ids);
    if (!this.opts.fetch) return base;
    const rec = await bookRecord(isbn, this.worksOptions());
    return `${base}; ${rec.text}`;
  }

  private worksOptions(): WorkRecordOptions {
    const f = this.opts.fetch!;
    const w: WorkRecordOptions = { ...f.works };
    w.policy = { ...f.policy, ...f.works?.policy, ...(f.policy?.allowHosts ? { allowHosts: f.policy.allowHosts } : {}), ...(f.policy?.resolver ? { resolver: f.policy.resolver } : {}) };
    if (f.cache && !w.cache) w.cache = f.cache;
    if (f.offline) w.offline = true;
    return w;
  }

  /**
   * With fetching on, an identifier is read through its metadata API: arXiv, PubMed and PubMed Central ids
   * first (their abstract, the open full text or the PDF), a DOI after its landing page (Crossref's abstract
   * when the publisher's page cannot be read). An API that says the work does not exist is `workNotFound`;
   * one that cannot be reached leaves the landing page to decide.
   */
  private async fetchWork(ref: SourceRef, cited: string, original: string | undefined, attempts: SourceAttempt[], idUrl?: string): Promise<ResolvedSource> {
    const id = apiId(ref);
    if (!id) return this.fetchWithArchive(ref, cited, original, attempts, idUrl);
    const notes: string[] = [];
    if (id.type !== 'doi') {
      const w = await this.workRecord(id.type, id.id, cited);
      attempts.push(apiAttempt(w));
      if (w.ok) return this.foundWork(w, cited, attempts);
      if (w.notFound) return { status: 'not-found', workNotFound: true, url: cited, reason: w.reason, attempts };
      notes.push(w.reason);
    }
    const landed = await this.fetchWithArchive(ref, cited, original, attempts, idUrl);
    if (landed.status === 'found' || landed.workNotFound) return landed;
    if (id.type === 'doi') {
      const w = await crossrefWork(id.id, this.worksOptions(), cited);
      attempts.push(apiAttempt(w));
      if (w.ok) return this.foundWork(w, cited, attempts);
      notes.push(w.reason);
    }
    return { ...landed, reason: [landed.reason, ...notes].filter(Boolean).join('; ') };
  }

  private async workRecord(type: 'arxiv' | 'pmid' | 'pmc', id: string, cited: string): Promise<WorkRecord> {
    const opts = this.worksOptions();
    if (type === 'arxiv') return arxivWork(id, opts, cited);
    return europePmcWork(type, id, opts, cited);
  }

  /** An API's record; for arXiv, the PDF (the whole paper) when it can be read, else the abstract. */
  private async foundWork(w: Extract<WorkRecord, { ok: true }>, cited: string, attempts: SourceAttempt[]): Promise<ResolvedSource> {
    let document = w.document;
    let fullText = w.fullText;
    let usedUrl = w.apiUrl;
    if (w.api === 'arxiv') {
      const id = workIdFromUrl(cited)?.id ?? cited.split('/abs/')[1];
      if (id) {
        const pdfUrl = `${WORK_API_BASES.arxivPdf}/${id}`;
        const pdf = await this.fetchCached(pdfUrl, w.document.title);
        attempts.push({ via: pdf.fromCache ? 'cache' : 'fetch', url: pdfUrl, outcome: pdf.ok ? 'found' : pdf.status, ...(pdf.ok ? {} : { reason: pdf.reason }) });
        if (pdf.ok && pdf.document.sentences.length > document.sentences.length) {
          document = { ...pdf.document, title: w.document.title, url: cited };
          fullText = true;
          usedUrl = pdfUrl;
        }
      }
    }
    return { status: 'found', via: 'api', url: cited, usedUrl, document, resolvedBy: { api: w.api, fullText }, attempts };
  }

  private async fetchWithArchive(ref: SourceRef, cited: string, original: string | undefined, attempts: SourceAttempt[], idUrl?: string): Promise<ResolvedSource> {
    const live = ref.url ?? idUrl ?? original;
    const fetchOpts = this.opts.fetch!;
    const archive = ref.archiveUrl ?? (live && fetchOpts.wayback !== false ? waybackUrl(live, ref.accessDate ?? ref.date, fetchOpts.waybackBase ?? WAYBACK_BASE) : undefined);
    // A page its citation already calls dead is read from the archive first.
    const order: { url: string; archived: boolean }[] = [];
    if (ref.deadUrl && archive) order.push({ url: archive, archived: true });
    if (live) order.push({ url: live, archived: false });
    if (archive && !ref.deadUrl) order.push({ url: archive, archived: true });

    const failures: { archived: boolean; status: SourceStatus; reason: string; noSuchName?: boolean; answered: boolean }[] = [];
    for (const { url, archived } of order) {
      const out = await this.fetchCached(url, ref.title);
      const via = out.fromCache ? 'cache' : archived ? 'archive' : 'fetch';
      if (out.ok) {
        attempts.push({ via, url, outcome: 'found' });
        return { status: 'found', via: archived ? 'archive' : via, url: cited, usedUrl: out.finalUrl, document: out.document, attempts };
      }
      const attempt: SourceAttempt = { via, url, outcome: out.status, reason: out.reason };
      if (out.httpStatus !== undefined) attempt.httpStatus = out.httpStatus;
      attempts.push(attempt);
      // The identifier resolver itself (not the publisher it redirects to) says "no such work": no archive can help.
      const work = !archived && out.status === 'dead' ? workIdFromUrl(out.finalUrl) : undefined;
      if (work) {
        const host = new URL(out.finalUrl).hostname;
        return { status: 'not-found', workNotFound: true, url: cited, reason: `cited work not found: ${host} has no ${WORK_ID_NAMES[work.type]} ${work.id} (${out.reason})`, attempts };
      }
      failures.push({ archived, status: out.status, reason: out.reason, noSuchName: !!out.noSuchName, answered: !out.transient && !out.fromCache });
      // Only a missing page has an archived copy worth trying; a PDF or a refused address does not.
      if (!archived && out.status !== 'dead' && out.status !== 'unreachable') break;
    }
    // The live page's failure is the status the report shows; the archive's only adds to the reason. A
    // name without DNS answer is a dead link only when the archive's server answered on this run (the
    // network works, so the name is gone); alone, it is what being offline looks like.
    const main = failures.find((f) => !f.archived) ?? failures[0];
    const reason = failures.map((f) => (f.archived ? `archived copy: ${f.reason}` : f.reason)).join('; ');
    const gone = main && !main.archived && main.noSuchName && failures.some((f) => f.archived && f.answered);
    return { status: gone ? 'dead' : (main?.status ?? 'not-found'), url: cited, reason: reason || 'nothing to fetch', attempts };
  }

  /**
   * A resolver page (doi.org, PubMed, PMC, arXiv) sent to the mirror the settings name instead; the mirror's
   * origin (scheme, host and port) is trusted by the SSRF guard for that request (the user chose it), a cited
   * URL never is. The origin, not the host name: trusting the name let a redirect chain reach any port of an
   * internal mirror host (a 302 from the mirror to :6379 was followed and read).
   */
  private mirror(url: string): { url: string; from: string; to: string; trusted: string[] } {
    const bases = this.opts.fetch?.works?.bases;
    if (bases) {
      for (const [name, canonical] of MIRRORABLE) {
        const base = bases[name];
        if (!base || !url.startsWith(canonical)) continue;
        const to = base.replace(/\/+$/, '') + '/';
        if (to === canonical) break;
        return { url: to + url.slice(canonical.length), from: canonical, to, trusted: trustedOrigins({ bases: { [name]: base } }) };
      }
    }
    return { url, from: url, to: url, trusted: [] };
  }

  /** One fetch per page per resolver: later and concurrent askers share the first one's outcome. */
  private fetchCached(url: string, title: string | undefined): Promise<FetchedOutcome> {
    const key = urlKey(url);
    let pending = this.fetches.get(key);
    if (!pending) {
      pending = this.fetchOnce(url, title);
      this.fetches.set(key, pending);
    }
    return pending;
  }

  private async fetchOnce(url: string, title: string | undefined): Promise<FetchedOutcome> {
    const { cache, policy, route, offline } = this.opts.fetch!;
    const cached = await cache?.get(url, undefined, offline);
    if (cached) return cached.ok ? { ok: true, document: cached.document, finalUrl: cached.finalUrl, fromCache: true } : { ...failureOf(cached), fromCache: true };
    if (offline) return { ok: false, status: 'unreachable', reason: `could not reach ${hostOf(url)}: offline, and the page is not in the cache`, finalUrl: url, fromCache: false, transient: true };
    const mirrored = this.mirror(url);
    const routed = route ? route(mirrored.url) : mirrored.url;
    const raw = await fetchPage(routed, { pdf: true, ...policy, ...(mirrored.trusted.length ? { allowOrigins: [...(policy?.allowOrigins ?? []), ...mirrored.trusted] } : {}) });
    // Reports (and the "work not found" test) read the canonical resolver URL, not the mirror's.
    const res = mirrored.url !== url && raw.finalUrl.startsWith(mirrored.to) ? { ...raw, finalUrl: mirrored.from + raw.finalUrl.slice(mirrored.to.length) } : raw;
    const fetchedAt = new Date().toISOString();
    let entry: CachedPage;
    const reader = this.opts.fetch!.reader;
    const named = title !== undefined ? { title } : {};
    let read: { ok: true; document: Document } | { ok: false; reason: string } | undefined;
    try {
      if (res.ok && res.kind === 'pdf') read = reader ? await reader.pdf({ bytes: res.bytes, url, ...named }) : await pdfToDocument(res.bytes, url, title);
      else if (res.ok) read = { ok: true, document: reader ? await reader.page({ body: res.body, kind: res.kind, url, ...named }) : pageToDocument(res.body, res.kind, url, title) };
    } catch (e) {
      // over the reader's budget (time, memory): this page is unreadable here, the audit goes on
      read = { ok: false, reason: `the page could not be read: ${(e as Error).message}` };
    }
    if (res.ok && read && !read.ok) {
      entry = { ok: false, url, finalUrl: res.finalUrl, fetchedAt, status: 'unreadable', reason: read.reason };
    } else if (res.ok && res.kind === 'pdf' && read?.ok) {
      entry = { ok: true, url, finalUrl: res.finalUrl, fetchedAt, contentType: res.contentType, document: read.document };
    } else if (res.ok && read?.ok) {
      const document = read.document;
      entry = document.sentences.length
        ? { ok: true, url, finalUrl: res.finalUrl, fetchedAt, contentType: res.contentType, document }
        : { ok: false, url, finalUrl: res.finalUrl, fetchedAt, status: 'unsupported', reason: 'no main text could be extracted from the page' };
    } else if (!res.ok) {
      entry = { ok: false, url, finalUrl: res.finalUrl, fetchedAt, status: res.status, reason: res.reason };
      if (res.httpStatus !== undefined) entry.httpStatus = res.httpStatus;
      // No answer from the server (offline, DNS, timeout) says nothing about the page: not cached, so the
      // next run asks again instead of reporting yesterday's outage for a day.
      // Nor does "later" (429, 502-504): a rate-limited landing page was cached for a day (issue 44).
      if (res.transient || (res.httpStatus !== undefined && LATER_STATUS.has(res.httpStatus))) return { ...failureOf(entry), fromCache: false, transient: true, ...(res.noSuchName ? { noSuchName: true } : {}) };
    } else {
      entry = { ok: false, url, finalUrl: res.finalUrl, fetchedAt, status: 'unreadable', reason: 'the page could not be read' };
    }
    // The page was read; a cache that cannot be written (disk full, permissions) costs a re-fetch next
    // run, not this citation.
    await cache?.put(entry).catch(() => undefined);
    return entry.ok ? { ok: true, document: entry.document, finalUrl: entry.finalUrl, fromCache: false } : { ...failureOf(entry), fromCache: false };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The identifier a metadata API reads: the reference's own (no URL), or the one its resolver URL stands for. */
function apiId(ref: SourceRef): { type: 'doi' | 'arxiv' | 'pmid' | 'pmc'; id: string } | undefined {
  const api = (t: WorkIdType): t is 'doi' | 'arxiv' | 'pmid' | 'pmc' => t === 'doi' || t === 'arxiv' || t === 'pmid' || t === 'pmc';
  if (ref.url) {
    const one = workIdFromUrl(ref.url);
    return one && api(one.type) ? { type: one.type, id: one.id } : undefined;
  }
  const id = primaryId(ref.ids);
  return id && api(id.type) ? { type: id.type, id: id.id } : undefined;
}

function apiAttempt(w: WorkRecord): SourceAttempt {
  return w.ok ? { via: 'api', url: w.apiUrl, outcome: 'found' } : { via: 'api', url: w.apiUrl, outcome: w.status, reason: w.reason };
}

/** Canonical resolver pages and the base setting that may replace them. */
const MIRRORABLE: readonly [WorkApiName, string][] = [
  ['doi', 'https://doi.org/'],
  ['pubmed', 'https://pubmed.ncbi.nlm.nih.gov/'],
  ['pmc', 'https://pmc.ncbi.nlm.nih.gov/articles/'],
  ['arxivAbs', 'https://arxiv.org/abs/'],
  ['arxivPdf', 'https://arxiv.org/pdf/'],
];

/** No URL but an identifier: the identifier's landing page stands for the URL. */
function identifierUrl(ref: SourceRef): string | undefined {
  const id = primaryId(ref.ids);
  return !ref.url && id ? landingUrl(id.type, id.id) : undefined;
}

/** The URL a citation is reported under: its own, the identifier's landing page, or the archived page's original. */
function citedUrl(ref: SourceRef): string | undefined {
  return ref.url ?? identifierUrl(ref) ?? (ref.archiveUrl ? originalFromArchiveUrl(ref.archiveUrl) : undefined) ?? ref.archiveUrl;
}

function failureOf(e: Extract<CachedPage, { ok: false }>): { ok: false; status: FailureStatus; reason: string; httpStatus?: number; finalUrl: string } {
  const out: { ok: false; status: FailureStatus; reason: string; httpStatus?: number; finalUrl: string } = { ok: false, status: e.status, reason: e.reason, finalUrl: e.finalUrl };
  if (e.httpStatus !== undefined) out.httpStatus = e.httpStatus;
  return out;
}
