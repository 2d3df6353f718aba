/**
 * Dense + hybrid benchmark: the synthetic corpus ingested with clustered 512-d vectors through the real
 * ingest path, the ANN index built by the store, then
 *  - recall@100 of ANN search against exact search (same table, index bypassed), queries/s;
 *  - hybrid query (BM25 + dense + RRF fusion, via Retriever) p50/p95.
 * Usage: node --import tsx bench/bench-dense.ts [--passages 500000] [--queries 200]
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Retriever } from '../src/retrieve/retriever.js';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore, type VectorSearchOptions } from '../src/store/lancedb-store.js';
import { syntheticQueries, writeSyntheticCorpus } from './synthetic.js';
import { ClusteredEmbedder } from './synthetic-vectors.js';
import { peakRssMb, percentile, saveBenchResult, dirSize } from './util.js';

const { values } = parseArgs({
  options: {
    passages: { type: 'string', default: process.env.BENCH_PASSAGES ?? '500000' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '42' },
    dir: { type: 'string', default: 'tmp/bench' },
    ef: { type: 'string', default: '200' },
    reuse: { type: 'boolean', default: false },
  },
});
const passages = Number(values.passages);
const seed = Number(values.seed);
mkdirSync(values.dir!, { recursive: true });
const corpus = `${values.dir}/synthetic-${seed}-${passages}.jsonl`;
if (!existsSync(corpus)) await writeSyntheticCorpus(corpus, { seed, passages });
const indexDir = `${values.dir}/dense-${seed}-${passages}`;
const embedder = new ClusteredEmbedder(512);

let ingestSeconds = 0;
let vectorIndexSeconds = 0;
if (!values.reuse || !existsSync(indexDir)) {
  rmSync(indexDir, { recursive: true, force: true });
  const store = await LanceStore.open(indexDir);
  const t = performance.now();
  const s = await ingestSource(store, corpus, { format: 'jsonl', batchSize: 5000, embedder, buildIndex: false });
  ingestSeconds = s.seconds;
  await store.buildTextIndex();
  const t2 = performance.now();
  const how = await store.buildVectorIndex();
  vectorIndexSeconds = (performance.now() - t2) / 1000;
  console.log(`ingested ${s.passages} passages with vectors in ${((performance.now() - t) / 1000).toFixed(1)} s; vector index: ${how} in ${vectorIndexSeconds.toFixed(1)} s`);
  await store.close();
}

const store = await LanceStore.open(indexDir, { create: false });
const texts = syntheticQueries(seed + 2, Number(values.queries));
const qvecs = await embedder.embed(texts.map((t, i) => `query ${i} ${t}`));
const annOpts: VectorSearchOptions = { ef: Number(values.ef) };
const K = 100;
for (const v of qvecs.slice(0, 20)) await store.searchVector(v, K, annOpts); // warm-up

// ANN ids + scores (the search), then with passage text fetched (what a caller that shows results pays).
let recallSum = 0;
const annTimes: number[] = [];
let annWall = 0;
const fullTimes: number[] = [];
for (const v of qvecs) {
  let t = performance.now();
  const ann = await store.searchVectorIds(v, K, annOpts);
  const d = performance.now() - t;
  annTimes.push(d);
  annWall += d;
  t = performance.now();
  await store.searchVector(v, K, annOpts);
  fullTimes.push(performance.now() - t);
  const exact = await store.searchVectorIds(v, K, { exact: true });
  const truth = new Set(exact.map((h) => h.id));
  recallSum += ann.filter((h) => truth.has(h.id)).length / Math.max(1, truth.size);
}
annTimes.sort((a, b) => a - b);
fullTimes.sort((a, b) => a - b);

// Hybrid through the Retriever: the query embedder sees the query text, so use the same synthetic model.
const retriever = new Retriever(store, embedder, { mode: 'hybrid', fusion: { method: 'rrf' } });
const hybridTimes: number[] = [];
for (const q of texts) {
  const t = performance.now();
  await retriever.search(q, { k: 10 });
  hybridTimes.push(performance.now() - t);
}
hybridTimes.sort((a, b) => a - b);
const stats = await store.stats();
await store.close();

const result = {
  benchmark: 'dense',
  passages: stats.passages,
  dimension: 512,
  queries: qvecs.length,
  ann: { index: 'HNSW-SQ (cosine)', ...annOpts },
  ingestSeconds: +ingestSeconds.toFixed(1),
  vectorIndexSeconds: +vectorIndexSeconds.toFixed(1),
  recallAt100: +(recallSum / qvecs.length).toFixed(4),
  annP50Ms: +percentile(annTimes, 50).toFixed(2),
  annP95Ms: +percentile(annTimes, 95).toFixed(2),
  annQueriesPerSecond: +((1000 * qvecs.length) / annWall).toFixed(1),
  withPassagesP50Ms: +percentile(fullTimes, 50).toFixed(2),
  withPassagesQueriesPerSecond: +(1000 / (fullTimes.reduce((a, b) => a + b, 0) / fullTimes.length)).toFixed(1),
  hybridP50Ms: +percentile(hybridTimes, 50).toFixed(2),
  hybridP95Ms: +percentile(hybridTimes, 95).toFixed(2),
  indexBytes: dirSize(indexDir),
  peakRssMb: peakRssMb(),
};
console.log(JSON.stringify(result, null, 2));
saveBenchResult('dense', result);
