/**
 * A GET to a metadata or search API (Crossref, DataCite, Europe PMC, arXiv, Open Library, OpenAlex,
 * Wikipedia, SearXNG, Brave) that answers JSON or XML: the page fetcher's guarded request (http-fetch.ts:
 * every hop's host resolved and checked, the connection pinned to the checked address, redirects followed by
 * hand, timeouts, a size cap, "could not reach" told from "dead") with the API's Accept header, its answer
 * read as text whatever type it declares.
 *
 * Politeness: requests to one host are serial, the next one starting `minIntervalMs` after the previous one
 * FINISHED (Wikimedia's etiquette asks for serial requests, arXiv for one connection; Crossref's and NCBI's
 * guidance give the interval). Spacing only the starts let three slow answers overlap.
 *
 * Rate limits: a 429 or 503 is asked again after the wait its Retry-After names (seconds or an HTTP date;
 * without one, a doubling back-off), within a bounded budget of waiting per request, each wait announced
 * through `onWait` (the user sees why nothing moves); a wait the budget cannot cover fails at once, saying
 * what the service asked for.
 *
 * Every wait here is a plain (ref'd) timer: the pending request keeps the process alive. An unref'd timer
 * let Node find nothing left to do while a command awaited its turn, and end it with exit 13 and no output.
 */
import { fetchPage, type FetchPolicy } from './http-fetch.js';

export interface ApiWait {
  url: string;
  host: string;
  /** What asked for the wait ("HTTP 429", "maxlag"). */
  why: string;
  waitMs: number;
  /** 1-based retry about to be made, and the most there will be. */
  attempt: number;
  maxAttempts: number;
}

export interface ApiFetchPolicy extends Omit<FetchPolicy, 'accept' | 'pdf'> {
  /** Least time between the end of one request to a host and the start of the next (ms); 0: no queue. */
  minIntervalMs?: number;
  /** Most time spent waiting out 429 / 503 answers for one request (ms, default 60 s); 0: never retried. */
  retryBudgetMs?: number;
  /** Most retries of one request (default 4). */
  maxRetries?: number;
  /** Told before each wait (a progress line). */
  onWait?: (w: ApiWait) => void;
}

export type ApiResult =
  | { ok: true; url: string; finalUrl: string; httpStatus: number; contentType: string; body: string; retryAfter?: string }
  /** `transient`: no answer (DNS, network, timeout, a rate limit): says nothing about the work, never cached. */
  | { ok: false; url: string; finalUrl: string; status: 'dead' | 'unreachable' | 'unsupported' | 'blocked'; reason: string; httpStatus?: number; transient?: boolean; retryAfter?: string };

/** API answers may be larger than a web page (a full-text JATS article); they redirect little. */
const DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxRedirects: 3, userAgent: 'veracite-citation-audit/0.1' };
export const DEFAULT_RETRY_BUDGET_MS = 60_000;
const DEFAULT_MAX_RETRIES = 4;
/** Statuses that say "later", not "no". */
const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** Retry-After (delta-seconds or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Per host: the last request's end, and the tail of the queue of requests waiting for their turn. */
const hosts = new Map<string, { tail: Promise<void>; lastEnd: number }>();

/** Runs `fn` when the host is free: after every earlier request to it finished, plus the interval. */
export async function hostTurn<T>(host: string, minIntervalMs: number, fn: () => Promise<T>): Promise<T> {
  if (minIntervalMs <= 0) return fn();
  const state = hosts.get(host) ?? { tail: Promise.resolve(), lastEnd: 0 };
  hosts.set(host, state);
  const prev = state.tail;
  let done!: () => void;
  state.tail = new Promise<void>((r) => (done = r));
  await prev;
  try {
    const wait = state.lastEnd + minIntervalMs - Date.now();
    if (wait > 0) await sleep(wait);
    return await fn();
  } finally {
    state.lastEnd = Date.now();
    done();
  }
}

export async function fetchApi(url: string, policy: ApiFetchPolicy = {}, accept = 'application/json'): Promise<ApiResult> {
  const { minIntervalMs = 0, retryBudgetMs = DEFAULT_RETRY_BUDGET_MS, maxRetries = DEFAULT_MAX_RETRIES, onWait, ...fetchPolicy } = policy;
  let host: string;
  try {
    host = new URL(url).host.toLowerCase();
  } catch {
    return { ok: false, url, finalUrl: url, status: 'unsupported', reason: 'not a valid URL' };
  }
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const r = await hostTurn(host, minIntervalMs, () => fetchPage(url, { ...DEFAULTS, ...fetchPolicy, accept }));
    if (r.ok) return { ok: true, url, finalUrl: r.finalUrl, httpStatus: r.httpStatus, contentType: r.contentType, body: r.body, ...('retryAfter' in r && r.retryAfter !== undefined ? { retryAfter: r.retryAfter } : {}) };
    const failed: ApiResult = { ok: false, url, finalUrl: r.finalUrl, status: r.status, reason: r.reason, ...(r.httpStatus !== undefined ? { httpStatus: r.httpStatus } : {}), ...(r.transient ? { transient: true } : {}), ...(r.retryAfter !== undefined ? { retryAfter: r.retryAfter } : {}) };
    if (r.httpStatus === undefined || !TRANSIENT_STATUS.has(r.httpStatus)) return failed;
    // A rate limit or an overloaded server: says nothing about the work (never cached), maybe waited out.
    failed.transient = true;
    const asked = retryAfterMs(r.retryAfter);
    const wait = asked ?? Math.max(minIntervalMs, 500) * 2 ** attempt;
    if (attempt >= maxRetries || waited + wait > retryBudgetMs) {
      const spent = waited ? `, after ${attempt} ${attempt === 1 ? 'retry' : 'retries'} over ${(waited / 1000).toFixed(1)} s` : '';
      const why = asked !== undefined && waited + wait > retryBudgetMs ? ` (it asked to wait ${(asked / 1000).toFixed(0)} s, more than the ${(retryBudgetMs / 1000).toFixed(0)} s a request may wait)` : spent;
      return { ...failed, reason: `${r.reason}${why}` };
    }
    onWait?.({ url, host, why: `HTTP ${r.httpStatus}`, waitMs: wait, attempt: attempt + 1, maxAttempts: maxRetries });
    await sleep(wait);
    waited += wait;
  }
}
