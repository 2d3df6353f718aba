/**
 * Search wiring from the settings (the composition root's): the search client (mirrors, contact e-mail,
 * polite intervals, the answer cache, offline replay) and the page reader (a source resolver with the page
 * cache, no archive), shared by verification without an index and the audit's better sources.
 */
import { PageCache } from '../sources/page-cache.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { europePmcWork } from '../sources/work-records.js';
import type { Document } from '../corpus/types.js';
import { SearchCache } from '../search/search-cache.js';
import { SearchClient } from '../search/search-client.js';
import type { SearchSourcesOptions } from '../search/collect.js';
import type { SearchHit } from '../search/types.js';
import { pageCacheDir, workOptions } from './audit.js';
import type { Settings } from './settings.js';

/** Test only: DNS and an allowlist for loopback pages (never set by the CLI or the server). */
export interface SearchTestHooks {
  policy?: { allowHosts?: string[] };
}

export function searchOptions(settings: Settings, hooks: SearchTestHooks = {}): Omit<SearchSourcesOptions, 'exclude' | 'excludeRead'> {
  const src = settings.sources;
  const s = settings.search;
  const dir = pageCacheDir(settings);
  const policy = { timeoutMs: src.timeoutMs, maxBytes: src.maxBytes, maxRedirects: src.maxRedirects, ...hooks.policy };
  const client = new SearchClient({
    ...(src.apis ? { bases: src.apis } : {}),
    ...(src.contactEmail ? { email: src.contactEmail } : {}),
    wiki: s.wiki,
    ...(src.apiIntervalMs !== undefined ? { intervalMs: src.apiIntervalMs } : {}),
    policy,
    cache: new SearchCache(dir),
    offline: src.offline,
  });
  const works = workOptions(settings);
  const resolver = new SourceResolver({ fetch: { policy, cache: new PageCache(dir), wayback: false, works: { ...works, cache: new PageCache(dir) }, offline: src.offline } });
  return {
    providers: s.providers,
    client,
    budget: { queries: s.maxQueries, fetches: s.maxFetches, perQuery: s.perQuery },
    readPage: async (url, title) => {
      const r = await resolver.resolve({ url, title });
      return r.status === 'found' && r.document ? { ok: true, document: r.document } : { ok: false, reason: r.reason ?? r.status };
    },
    // An open-access paper's full text (Europe PMC), read as a cited PubMed Central article is; offline, only from the cache.
    readFullText: async (hit: SearchHit): Promise<Document | undefined> => {
      if (!hit.pmcid) return undefined;
      const rec = await europePmcWork('pmc', hit.pmcid.replace(/^PMC/i, ''), { ...works, cache: new PageCache(dir), ...(policy ? { policy } : {}) }, hit.url);
      return rec.ok && rec.fullText ? rec.document : undefined;
    },
  };
}

/** What the provenance records of the search (never a key, never a mirror's address). */
export function searchConfigOf(settings: Settings): Record<string, unknown> {
  const s = settings.search;
  return { providers: s.providers, wiki: s.wiki, maxQueries: s.maxQueries, maxFetches: s.maxFetches, perQuery: s.perQuery };
}
