/**
 * The one way a provider reaches its API: the metadata APIs' guarded GET (sources/api-fetch.ts: SSRF guard
 * on every hop, pinned address, timeouts, size cap, serial requests per host spaced by the provider's polite
 * interval, 429 / 503 waited out within a budget), through the search cache (search-cache.ts), or only the
 * cache when offline. A base the user set (`--api-base wikipedia=http://127.0.0.1:8080`) is trusted by the
 * SSRF guard for its own ORIGIN (scheme, host and port), as the metadata APIs' mirrors are; a redirect from it
 * to another port or scheme of that host is checked like any address, and a URL a search answer names never is.
 *
 * Only parsed success is cached. An answer is read first (JSON, then the provider's schema and its own error
 * conventions: MediaWiki's HTTP-200 `error`, SearXNG's every-engine-unresponsive) and stored only when the
 * provider accepted it; an error answer, an HTML page where JSON was expected, a transient status, is never
 * written, so an outage is not replayed for a week. An answer that says "later" (MediaWiki `maxlag`,
 * `ratelimited`) is asked again after the wait it names, within the same budget as HTTP 429s.
 */
import { DEFAULT_RETRY_BUDGET_MS, fetchApi, sleep, type ApiFetchPolicy, type ApiResult, type ApiWait } from '../sources/api-fetch.js';
import { userAgent } from '../sources/user-agent.js';
import { failureText } from './answer-check.js';
import { inThreadAnswerReader, type AnswerReader } from './answer-pool.js';
import type { AnswerTask } from './answer-readers.js';
import { PROVIDER_BASES } from './search-api-bases.js';
import { requestKey, type SearchCache } from './search-cache.js';
import { PROVIDER_LABELS, type ReaderContext, type ReaderName, type RequestOptions, type SearchProviderName, type SearchRequester } from './types.js';

/**
 * Least time between the end of one request to a provider's host and the start of the next (ms): OpenAlex
 * and Crossref's polite pools ~10/s, Europe PMC ~7/s, Wikimedia asks for serial requests, Brave's free plan
 * allows 1 query a second, a self-hosted SearXNG is its owner's (its engines rate-limit it in turn).
 */
export const SEARCH_INTERVAL_MS: Record<SearchProviderName, number> = {
  wikipedia: 100,
  openalex: 100,
  europepmc: 150,
  crossref: 100,
  searxng: 500,
  brave: 1000,
};

/** Search answers are small (a page of results); more than this is not a search answer. */
export const SEARCH_MAX_BYTES = 4 * 1024 * 1024;

export interface SearchClientOptions {
  /** Mirrors by provider name (`--api-base`); absent ones use the public APIs. */
  bases?: Partial<Record<string, string>>;
  email?: string;
  /** Wikipedia language edition (default en). */
  wiki?: string;
  /** Overrides every provider's polite interval (tests: 0). */
  intervalMs?: number;
  /** Timeouts and caps; tests add their DNS resolver. */
  policy?: ApiFetchPolicy;
  cache?: SearchCache;
  /** Answer from the cache only (any age); a request not recorded there fails, naming the cache. */
  offline?: boolean;
  /** Batch runs: ask MediaWiki to refuse while its replicas lag (`maxlag=5`), and wait as it says. */
  batch?: boolean;
  /** Where waits on a rate limit are told (default: a line on stderr). */
  onWait?: (provider: SearchProviderName, w: ApiWait) => void;
  /** Where answers are read (default: on this thread; the composition root gives the worker). */
  answers?: AnswerReader;
}

/** Keys sent in a URL never reach a message (a blocked-address reason quotes the URL). */
const redact = (s: string) => s.replace(/([?&](?:api_key|key)=)[^&\s#]+/gi, '$1***');

const defaultOnWait = (provider: SearchProviderName, w: ApiWait) =>
  console.error(`${PROVIDER_LABELS[provider]}: ${w.host} asked to wait (${w.why}); retrying in ${(w.waitMs / 1000).toFixed(1)} s (retry ${w.attempt} of ${w.maxAttempts})`);

const IN_THREAD = inThreadAnswerReader();

export class SearchClient implements SearchRequester {
  readonly email: string | undefined;
  readonly wiki: string;
  readonly batch: boolean;
  /** Requests sent (not answered from the cache), for the benches. */
  requests = 0;
  constructor(private readonly opts: SearchClientOptions = {}) {
    this.email = opts.email;
    this.wiki = opts.wiki ?? 'en';
    this.batch = opts.batch ?? false;
  }

  base(provider: SearchProviderName): string {
    const given = this.opts.bases?.[provider];
    return (given || PROVIDER_BASES[provider]).replace(/\/+$/, '').replace('{lang}', this.wiki);
  }

  /** The origin of a base the user replaced, trusted for that provider's requests only. */
  private trusted(provider: SearchProviderName): string[] {
    const given = this.opts.bases?.[provider];
    if (!given) return [];
    try {
      return [new URL(given.replace('{lang}', this.wiki)).origin];
    } catch {
      return [];
    }
  }

  private policy(provider: SearchProviderName, o: RequestOptions): ApiFetchPolicy {
    const onWait = this.opts.onWait ?? defaultOnWait;
    return {
      maxBytes: SEARCH_MAX_BYTES,
      ...this.opts.policy,
      allowOrigins: [...(this.opts.policy?.allowOrigins ?? []), ...this.trusted(provider)],
      userAgent: userAgent(this.email),
      minIntervalMs: this.opts.intervalMs ?? SEARCH_INTERVAL_MS[provider],
      onWait: (w) => onWait(provider, w),
      ...(o.headers ? { headers: o.headers } : {}),
    };
  }

  /**
   * A JSON answer read by the named reader (the provider's schema and error conventions), from the cache or
   * the API, in the answer worker when one was given. Throws an Error whose message the user reads after the
   * provider's label. Cached only when the reader accepted it.
   */
  async json<T>(provider: SearchProviderName, url: string, reader: ReaderName, ask: Omit<ReaderContext, 'wiki'>, o: RequestOptions = {}): Promise<T> {
    const key = requestKey(provider, url, this.base(provider));
    const cache = this.opts.cache;
    const ctx: ReaderContext = { ...ask, wiki: this.wiki };
    const read = async (t: Omit<AnswerTask, 'reader' | 'ctx'>) => {
      try {
        return await (this.opts.answers ?? IN_THREAD).read({ ...t, reader, ctx });
      } catch (e) {
        // Over the reading budget (time or memory), or the worker died: this answer is the failure.
        return { ok: false as const, message: (e as Error).message };
      }
    };
    const hit = await cache?.get(key, this.opts.offline);
    if (hit) {
      const r = await read({ url, contentType: hit.contentType, body: hit.body, meta: {} });
      if (r.ok) return r.value as T;
      // A cached entry that no longer reads (written by an older version): asked again, or, offline, missing.
    }
    if (this.opts.offline) throw new Error(cache ? `offline: no recorded answer for this request in ${cache.dir}` : 'offline, and no cache to replay from');
    const policy = this.policy(provider, o);
    const budget = policy.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    const maxRetries = policy.maxRetries ?? 4;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      this.requests++;
      const res = await fetchApi(url, policy, o.accept ?? 'application/json');
      if (!res.ok) throw new Error(redact(o.explain?.(res) ?? failureText(res)));
      const r = await read({ url: res.url, contentType: res.contentType, body: res.body, meta: res.retryAfter !== undefined ? { retryAfter: res.retryAfter } : {} });
      if (r.ok) {
        await cache?.put({ request: key, fetchedAt: new Date().toISOString(), httpStatus: res.httpStatus, contentType: res.contentType, body: res.body }).catch(() => undefined);
        return r.value as T;
      }
      const later = r.retryAfterMs;
      if (later === undefined) throw new Error(redact(r.message));
      if (attempt >= maxRetries || waited + later > budget) {
        throw new Error(redact(`${r.message}; ${waited ? `still so after ${attempt} ${attempt === 1 ? 'retry' : 'retries'} over ${(waited / 1000).toFixed(1)} s` : `it asked to wait ${(later / 1000).toFixed(0)} s, more than the ${(budget / 1000).toFixed(0)} s a request may wait`}: try again later`));
      }
      policy.onWait?.({ url, host: new URL(url).host, why: r.message, waitMs: later, attempt: attempt + 1, maxAttempts: maxRetries });
      await sleep(later);
      waited += later;
    }
  }

  /** A page of text or HTML (Wikipedia's REST HTML): cached only when it is a non-empty 200 answer. */
  async text(provider: SearchProviderName, url: string, o: RequestOptions = {}): Promise<ApiResult> {
    const key = requestKey(provider, url, this.base(provider));
    const cache = this.opts.cache;
    const hit = await cache?.get(key, this.opts.offline);
    if (hit) return { ok: true, url, finalUrl: url, httpStatus: hit.httpStatus, contentType: hit.contentType, body: hit.body };
    if (this.opts.offline) return { ok: false, url, finalUrl: url, status: 'unreachable', reason: cache ? `offline: no recorded answer for this request in ${cache.dir}` : 'offline, and no cache to replay from', transient: true };
    this.requests++;
    const res = await fetchApi(url, this.policy(provider, o), o.accept ?? 'text/html');
    if (res.ok && res.httpStatus === 200 && res.body.trim()) await cache?.put({ request: key, fetchedAt: new Date().toISOString(), httpStatus: res.httpStatus, contentType: res.contentType, body: res.body }).catch(() => undefined);
    return res.ok ? res : { ...res, reason: redact(res.reason) };
  }
}

