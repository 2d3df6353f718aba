/**
 * Corpus statistics for the source ranker (src/audit/corpus-stats.ts): one streamed pass over every
 * passage of an index (document frequencies, average length), then the cached read. Runs on the index
 * bench-ingest builds (synthetic text: a small vocabulary, so the cache file is smaller than a real
 * corpus's). Usage:
 *   node --import tsx bench/bench-corpus-stats.ts [--passages 500000] [--seed 42] [--index DIR]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CORPUS_STATS_FILE, corpusStats } from '../src/audit/corpus-stats.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { peakRssMb, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    passages: { type: 'string', default: process.env.BENCH_PASSAGES ?? '500000' },
    seed: { type: 'string', default: '42' },
    dir: { type: 'string', default: 'tmp/bench' },
    index: { type: 'string' },
  },
});
const indexDir = values.index ?? `${values.dir}/index-${values.seed}-${values.passages}`;
const store = await LanceStore.open(indexDir, { create: false });
// The cache goes to a scratch folder: the bench never writes into the index it measures.
const cacheDir = await mkdtemp(join(tmpdir(), 'vc-corpus-stats-'));
try {
  const t0 = performance.now();
  const stats = await corpusStats(store, cacheDir);
  const t1 = performance.now();
  await corpusStats(store, cacheDir);
  const t2 = performance.now();
  const result = {
    benchmark: 'corpus-stats',
    index: indexDir,
    passages: stats.n,
    terms: stats.toJSON().df.length,
    buildSeconds: +((t1 - t0) / 1000).toFixed(2),
    passagesPerSecond: Math.round(stats.n / ((t1 - t0) / 1000)),
    cachedReadSeconds: +((t2 - t1) / 1000).toFixed(3),
    cacheFileMb: +((await stat(join(cacheDir, CORPUS_STATS_FILE))).size / 1e6).toFixed(2),
    peakRssMb: peakRssMb(),
  };
  console.log(JSON.stringify(result, null, 2));
  saveBenchResult('corpus-stats', result);
} finally {
  await store.close();
  await rm(cacheDir, { recursive: true, force: true });
}
