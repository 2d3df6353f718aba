/**
 * A GET to a metadata API (Crossref, DataCite, Europe PMC, arXiv, Open Library, OpenAlex) that answers JSON
 * or XML: the page fetcher's guarded request (http-fetch.ts: every hop's host resolved and checked, the
 * connection pinned to the checked address, redirects followed by hand, timeouts, a size cap, "could not
 * reach" told from "dead") with the API's Accept header, its answer read as text whatever type it declares.
 *
 * Politeness: one request at a time per API host, at least `minIntervalMs` apart (Crossref's and NCBI's
 * guidance; arXiv asks for 3 s), and a User-Agent carrying the contact e-mail when one is set.
 */
import { fetchPage, type FetchPolicy } from './http-fetch.js';

export interface ApiFetchPolicy extends Omit<FetchPolicy, 'accept' | 'pdf'> {
  /** Least time between two requests to one host (ms). */
  minIntervalMs?: number;
}

export type ApiResult =
  | { ok: true; url: string; finalUrl: string; httpStatus: number; contentType: string; body: string }
  /** `transient`: no answer (DNS, network, timeout): says nothing about the work, never cached. */
  | { ok: false; url: string; finalUrl: string; status: 'dead' | 'unreachable' | 'unsupported' | 'blocked'; reason: string; httpStatus?: number; transient?: boolean };

/** API answers may be larger than a web page (a full-text JATS article); they redirect little. */
const DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxRedirects: 3, userAgent: 'veracite-citation-audit/0.1' };

/** Per host: when its next request may start (a chain, so concurrent callers queue). */
const hostQueues = new Map<string, Promise<void>>();

async function politeTurn(host: string, minIntervalMs: number): Promise<void> {
  if (minIntervalMs <= 0) return;
  const prev = hostQueues.get(host) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  hostQueues.set(host, prev.then(() => mine));
  await prev;
  setTimeout(release, minIntervalMs).unref?.();
}

export async function fetchApi(url: string, policy: ApiFetchPolicy = {}, accept = 'application/json'): Promise<ApiResult> {
  const { minIntervalMs = 0, ...fetchPolicy } = policy;
  try {
    await politeTurn(new URL(url).host.toLowerCase(), minIntervalMs);
  } catch {
    return { ok: false, url, finalUrl: url, status: 'unsupported', reason: 'not a valid URL' };
  }
  const r = await fetchPage(url, { ...DEFAULTS, ...fetchPolicy, accept });
  if (r.ok) return { ok: true, url, finalUrl: r.finalUrl, httpStatus: r.httpStatus, contentType: r.contentType, body: r.body };
  return { ok: false, url, finalUrl: r.finalUrl, status: r.status, reason: r.reason, ...(r.httpStatus !== undefined ? { httpStatus: r.httpStatus } : {}), ...(r.transient ? { transient: true } : {}) };
}
