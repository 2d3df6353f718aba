/**
 * Search politeness, measured: requests and wall time per claim for each provider at its polite interval
 * (SEARCH_INTERVAL_MS: requests to one host serial, the next starting that long after the previous ended),
 * against loopback fakes answering the documented shapes (test/fixtures/search) after a fixed latency per
 * provider, chosen to resemble the public APIs seen from Europe (an assumption, not a measurement of them);
 * then the same claims again from the answer cache (what `--offline` replays: no request). The collector runs
 * as `verify --search` runs it (default budget; Wikipedia articles read through the API; pages not read).
 * Usage: node --import tsx bench/bench-search-politeness.ts [--claims 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSearchApiServer, type SearchApiServer } from '../test/fixtures/search/serve-search-apis.js';
import { searchSources } from '../src/search/collect.js';
import { SearchCache } from '../src/search/search-cache.js';
import { SEARCH_INTERVAL_MS, SearchClient } from '../src/search/search-client.js';
import type { SearchProviderName } from '../src/search/types.js';
import { saveBenchResult } from './util.js';

const { values } = parseArgs({ options: { claims: { type: 'string', default: '3' } } });
const CLAIMS = [
  'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.',
  'Godrevy Lighthouse was built in 1859 by the engineer James Walker.',
  'Pups were counted from the cliffs at Godrevy in October.',
].slice(0, Number(values.claims));
/** Assumed answer latency per provider (ms). */
const LATENCY_MS: Record<Exclude<SearchProviderName, 'brave'>, number> = { wikipedia: 150, openalex: 250, europepmc: 400, crossref: 300, searxng: 800 };
const PROVIDERS = Object.keys(LATENCY_MS) as (keyof typeof LATENCY_MS)[];

const servers = new Map<string, SearchApiServer>();
for (const p of PROVIDERS) {
  const s = await startSearchApiServer();
  s.delayMs = LATENCY_MS[p];
  servers.set(p, s);
}
const bases = Object.fromEntries(PROVIDERS.map((p) => [p, servers.get(p)!.bases[p]]));
const dir = await mkdtemp(join(tmpdir(), 'vc-bench-search-'));

async function run(providers: SearchProviderName[], cacheDir: string) {
  const rows: { claim: number; requests: number; wallMs: number; sources: number; failures: number }[] = [];
  for (const [i, claim] of CLAIMS.entries()) {
    const client = new SearchClient({ bases, cache: new SearchCache(cacheDir), email: 'bench@example.org' });
    const t = performance.now();
    const { sources, report } = await searchSources(claim, { providers, client });
    rows.push({ claim: i, requests: client.requests, wallMs: Math.round(performance.now() - t), sources: sources.length, failures: report.failures.length });
  }
  const mean = (k: 'requests' | 'wallMs') => Math.round((rows.reduce((a, r) => a + r[k], 0) / rows.length) * 10) / 10;
  return { meanRequests: mean('requests'), meanWallMs: mean('wallMs'), rows };
}

const results: Record<string, unknown> = {};
for (const p of [...PROVIDERS.map((x) => [x] as SearchProviderName[]), PROVIDERS as SearchProviderName[]]) {
  const name = p.length > 1 ? 'all five' : p[0]!;
  const cache = join(dir, name.replace(/ /g, '-'));
  const first = await run(p, cache);
  const again = await run(p, cache);
  results[name] = { intervalMs: p.length > 1 ? 'each its own' : SEARCH_INTERVAL_MS[p[0]!], latencyMs: p.length > 1 ? 'each its own' : LATENCY_MS[p[0] as keyof typeof LATENCY_MS], first, fromCache: again };
  console.log(`${name.padEnd(10)} first: ${first.meanRequests} requests, ${first.meanWallMs} ms per claim; from the cache: ${again.meanRequests} requests, ${again.meanWallMs} ms`);
}
for (const s of servers.values()) await s.close();
await rm(dir, { recursive: true, force: true });
saveBenchResult('search-politeness', { claims: CLAIMS.length, latencyMs: LATENCY_MS, intervalMs: SEARCH_INTERVAL_MS, note: 'loopback fakes with assumed latency, not the public APIs', results });
