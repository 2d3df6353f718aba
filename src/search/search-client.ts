/**
 * The one way a provider reaches its API: the metadata APIs' guarded GET (sources/api-fetch.ts: SSRF guard
 * on every hop, pinned address, timeouts, size cap, one request at a time per host spaced by the provider's
 * polite interval), through the search cache (search-cache.ts), or only the cache when offline. A base the
 * user set (`--api-base wikipedia=http://127.0.0.1:8080`) is trusted by the SSRF guard for its own requests,
 * as the metadata APIs' mirrors are; a URL a search answer names never is.
 */
import { fetchApi, type ApiFetchPolicy, type ApiResult } from '../sources/api-fetch.js';
import { userAgent } from '../sources/work-records.js';
import { PROVIDER_BASES } from './search-api-bases.js';
import { requestKey, type SearchCache } from './search-cache.js';
import type { SearchProviderName, SearchRequester } from './types.js';

/**
 * Least time between two requests to one provider's host (ms): OpenAlex and Crossref's polite pools ~10/s,
 * Europe PMC ~7/s, Wikimedia asks for serial requests, Brave's free plan allows 1 query a second, a
 * self-hosted SearXNG is its owner's (its engines rate-limit it in turn).
 */
export const SEARCH_INTERVAL_MS: Record<SearchProviderName, number> = {
  wikipedia: 100,
  openalex: 100,
  europepmc: 150,
  crossref: 100,
  searxng: 500,
  brave: 1000,
};

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
}

export class SearchClient implements SearchRequester {
  readonly email: string | undefined;
  readonly wiki: string;
  constructor(private readonly opts: SearchClientOptions = {}) {
    this.email = opts.email;
    this.wiki = opts.wiki ?? 'en';
  }

  base(provider: SearchProviderName): string {
    const given = this.opts.bases?.[provider];
    return (given || PROVIDER_BASES[provider]).replace(/\/+$/, '').replace('{lang}', this.wiki);
  }

  /** The host of a base the user replaced, trusted for that provider's requests only. */
  private trusted(provider: SearchProviderName): string[] {
    const given = this.opts.bases?.[provider];
    if (!given) return [];
    try {
      return [new URL(given.replace('{lang}', this.wiki)).hostname.replace(/^\[|\]$/g, '')];
    } catch {
      return [];
    }
  }

  async get(provider: SearchProviderName, url: string, o: { accept?: string; headers?: Record<string, string> } = {}): Promise<ApiResult> {
    const key = requestKey(provider, url, this.base(provider));
    const cache = this.opts.cache;
    const hit = await cache?.get(key, this.opts.offline);
    if (hit) return { ok: true, url, finalUrl: url, httpStatus: hit.httpStatus, contentType: hit.contentType, body: hit.body };
    if (this.opts.offline) {
      return { ok: false, url, finalUrl: url, status: 'unreachable', reason: cache ? `offline: no recorded answer for this request in ${cache.dir}` : 'offline, and no cache to replay from', transient: true };
    }
    const policy: ApiFetchPolicy = {
      ...this.opts.policy,
      allowHosts: [...(this.opts.policy?.allowHosts ?? []), ...this.trusted(provider)],
      userAgent: userAgent(this.email),
      minIntervalMs: this.opts.intervalMs ?? SEARCH_INTERVAL_MS[provider],
      ...(o.headers ? { headers: o.headers } : {}),
    };
    const res = await fetchApi(url, policy, o.accept ?? 'application/json');
    if (res.ok) await cache?.put({ request: key, fetchedAt: new Date().toISOString(), httpStatus: res.httpStatus, contentType: res.contentType, body: res.body }).catch(() => undefined);
    return res;
  }
}

/** A JSON answer, or a SearchError-worthy message. */
export function parseJson<T>(res: ApiResult): T {
  if (!res.ok) throw new Error(/^HTTP \d/.test(res.reason) ? `${new URL(res.url).host} answered ${res.reason}` : res.reason);
  try {
    return JSON.parse(res.body) as T;
  } catch (e) {
    throw new Error(`unreadable answer from ${new URL(res.url).host}: not JSON (${(e as Error).message})`);
  }
}
