/**
 * Ingest benchmark: generate a seeded synthetic corpus, index it end to end (read, split, chunk, write,
 * build BM25), and report passages/s, index size and peak RSS. Usage:
 *   node --import tsx bench/bench-ingest.ts [--passages 500000] [--seed 42] [--dir tmp/bench-index]
 */
import { existsSync, rmSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { writeSyntheticCorpus } from './synthetic.js';
import { dirSize, peakRssMb, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    passages: { type: 'string', default: process.env.BENCH_PASSAGES ?? '500000' },
    seed: { type: 'string', default: '42' },
    dir: { type: 'string', default: 'tmp/bench' },
  },
});
const passages = Number(values.passages);
const seed = Number(values.seed);
const dir = values.dir!;
mkdirSync(dir, { recursive: true });
const corpus = `${dir}/synthetic-${seed}-${passages}.jsonl`;
if (!existsSync(corpus)) {
  const t = performance.now();
  const docs = await writeSyntheticCorpus(corpus, { seed, passages });
  console.log(`generated ${docs} documents in ${((performance.now() - t) / 1000).toFixed(1)} s -> ${corpus}`);
}
const indexDir = `${dir}/index-${seed}-${passages}`;
rmSync(indexDir, { recursive: true, force: true });
const store = await LanceStore.open(indexDir);
let lastLog = 0;
const summary = await ingestSource(store, corpus, {
  format: 'jsonl',
  batchSize: 5000,
  onProgress: (p) => {
    const now = performance.now();
    if (now - lastLog > 5000) {
      lastLog = now;
      console.log(`  ${p.phase}: ${p.documents} docs, ${p.passages} passages`);
    }
  },
});
const stats = await store.stats();
await store.close();
const result = {
  benchmark: 'ingest',
  seed,
  targetPassages: passages,
  documents: summary.documents,
  passages: summary.passages,
  sentences: summary.sentences,
  seconds: +summary.seconds.toFixed(2),
  indexSeconds: +summary.indexSeconds.toFixed(2),
  passagesPerSecond: Math.round(summary.passagesPerSecond),
  docsPerSecond: Math.round(summary.docsPerSecond),
  indexBytes: dirSize(indexDir),
  peakRssMb: peakRssMb(),
  textIndexed: stats.textIndexed,
  indexDir,
};
console.log(JSON.stringify(result, null, 2));
saveBenchResult('ingest', result);
