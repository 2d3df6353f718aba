/**
 * The same audit twice (issue 44 item 5): the shipped sample article (24 citations, 12 saved abstracts) audited
 * by the CLI, its own process, with better sources searched for its flagged and needs-review citations
 * (`--suggest-from search`, OpenAlex + Europe PMC + Crossref at their polite intervals, each a loopback fake
 * answering its documented shape after an assumed latency), into an answer cache; then the same command with
 * `--offline`, which replays the cache and sends no request. Requests are counted at the fakes; the two
 * reports' bands and suggestions are compared.
 * Usage: node --import tsx bench/bench-audit-search-cache.ts [--profile lite]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startSearchApiServer, type SearchApiServer } from '../test/fixtures/search/serve-search-apis.js';
import { saveBenchResult } from './util.js';

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'lite' } } });
const PROVIDERS = ['openalex', 'europepmc', 'crossref'] as const;
/** Assumed answer latency per provider (ms), as in bench-search-politeness.ts. */
const LATENCY_MS = { openalex: 250, europepmc: 400, crossref: 300 } as const;

const servers = new Map<string, SearchApiServer>();
for (const p of PROVIDERS) {
  const s = await startSearchApiServer();
  s.delayMs = LATENCY_MS[p];
  servers.set(p, s);
}
const dir = await mkdtemp(join(tmpdir(), 'vc-bench-audit-cache-'));
const cache = join(dir, 'cache');
const apiBase = PROVIDERS.map((p) => servers.get(p)!.apiBase(p)).join(',');

interface Report {
  summary: { citations: number; flagged: number };
  citations: { band?: { band?: string } | string; recommendations?: { suggestions?: { url?: string }[]; search?: { failures?: string[] } } }[];
}

async function audit(name: string, extra: string[]) {
  const out = join(dir, `${name}.json`);
  const before = [...servers.values()].reduce((a, s) => a + s.hits.length, 0);
  const load = loadavg()[0]!;
  const t = performance.now();
  // Asynchronous: the fakes answer from this process's event loop.
  await promisify(execFile)(process.execPath, ['bin/veracite.js', 'audit', 'data/samples/audit/Breast_cancer_risk_factors.txt', '--sources', 'data/samples/audit/sources', '--no-index', '--profile', values.profile!, '--suggest-from', 'search', '--search', PROVIDERS.join(','), '--search-fetches', '0', '--api-base', apiBase, '--cache', cache, '--contact-email', 'bench@example.org', '--out', out, '--quiet', ...extra], { encoding: 'utf8', maxBuffer: 64 << 20 }).catch((e: { code?: number; stderr?: string }) => {
    throw new Error(`audit (${name}) exited ${e.code}: ${String(e.stderr).slice(-2000)}`);
  });
  const wallMs = Math.round(performance.now() - t);
  const requests = [...servers.values()].reduce((a, s) => a + s.hits.length, 0) - before;
  const report = JSON.parse(await readFile(out, 'utf8')) as Report;
  const searched = report.citations.filter((c) => c.recommendations?.search).length;
  const suggestions = report.citations.map((c) => (c.recommendations?.suggestions ?? []).map((s) => s.url ?? ''));
  const bands = report.citations.map((c) => (typeof c.band === 'string' ? c.band : c.band?.band) ?? '');
  const failures = report.citations.flatMap((c) => c.recommendations?.search?.failures ?? []);
  console.log(`${name.padEnd(8)} ${requests} requests, ${(wallMs / 1000).toFixed(1)} s wall (load ${load.toFixed(1)}); searched for ${searched} citations, ${failures.length} provider failures`);
  return { requests, wallMs, load1: +load.toFixed(1), searched, failures, suggestions, bands };
}

const first = await audit('first', []);
const again = await audit('offline', ['--offline']);
for (const s of servers.values()) await s.close();
await rm(dir, { recursive: true, force: true });
const same = JSON.stringify(first.suggestions) === JSON.stringify(again.suggestions) && JSON.stringify(first.bands) === JSON.stringify(again.bands);
console.log(`the offline replay gives the same bands and suggestions: ${same}`);
saveBenchResult('audit-search-cache', {
  article: 'data/samples/audit/Breast_cancer_risk_factors.txt (24 citations)',
  profile: values.profile,
  providers: PROVIDERS,
  latencyMs: LATENCY_MS,
  note: 'loopback fakes with assumed latency, not the public APIs; the wall time includes model loading and scoring',
  first: { ...first, suggestions: undefined },
  offline: { ...again, suggestions: undefined },
  sameBandsAndSuggestions: same,
  command: `node --import tsx bench/bench-audit-search-cache.ts --profile ${values.profile}`,
});
