/**
 * Search benchmark on the index built by bench-ingest: top-100 BM25 through our layer (store.searchText
 * and Retriever's BM25 search grouped into documents) and the raw LanceDB query on the same table, interleaved query by
 * query so both see the same cache state. Prints p50/p95, queries/s and the ratio. Usage:
 *   node --import tsx bench/bench-search.ts [--passages 500000] [--queries 1000] [--seed 42]
 */
import { parseArgs } from 'node:util';
import { Retriever } from '../src/retrieve/retriever.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { syntheticQueries } from './synthetic.js';
import { peakRssMb, percentile, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    passages: { type: 'string', default: process.env.BENCH_PASSAGES ?? '500000' },
    queries: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '42' },
    dir: { type: 'string', default: 'tmp/bench' },
  },
});
const seed = Number(values.seed);
const indexDir = `${values.dir}/index-${seed}-${values.passages}`;
const store = await LanceStore.open(indexDir, { create: false });
const table = store.passagesTable!;
const queries = syntheticQueries(seed + 1, Number(values.queries));
const K = 100;
const retriever = new Retriever(store, undefined, { mode: 'bm25', sparseK: K });
const COLUMNS = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text', '_score'];

// The cheapest raw form: the same query and columns, returned as Arrow without per-row objects.
const raw = (q: string) => table.query().fullTextSearch(q, { columns: 'search_text' }).select(COLUMNS).limit(K).toArrow();

// Warm-up: load the index into the page cache for both paths.
for (const q of queries.slice(0, 50)) {
  await raw(q);
  await store.searchText(q, K);
}

type Path = 'raw' | 'store' | 'documents';
const times: Record<Path, number[]> = { raw: [], store: [], documents: [] };
let hitsTotal = 0;
const wall: Record<Path, number> = { raw: 0, store: 0, documents: 0 };
for (const q of queries) {
  let t = performance.now();
  await raw(q);
  let d = performance.now() - t;
  times.raw.push(d);
  wall.raw += d;
  t = performance.now();
  const hits = await store.searchText(q, K);
  d = performance.now() - t;
  times.store.push(d);
  wall.store += d;
  hitsTotal += hits.length;
  t = performance.now();
  await retriever.search(q, { k: 10 }); // 10 documents from the top-100 passages (depth = max(100, 3k))
  d = performance.now() - t;
  times.documents.push(d);
  wall.documents += d;
}
const summary = (p: Path) => {
  const s = [...times[p]].sort((a, b) => a - b);
  return { p50Ms: +percentile(s, 50).toFixed(2), p95Ms: +percentile(s, 95).toFixed(2), queriesPerSecond: +((1000 * s.length) / wall[p]).toFixed(1) };
};
const result = {
  benchmark: 'search',
  indexDir,
  passages: (await store.stats()).passages,
  queries: queries.length,
  k: K,
  meanHits: +(hitsTotal / queries.length).toFixed(1),
  raw: summary('raw'),
  ours: summary('store'),
  oursWithDocuments: summary('documents'),
  overheadRatio: +(wall.store / wall.raw).toFixed(3),
  overheadRatioWithDocuments: +(wall.documents / wall.raw).toFixed(3),
  peakRssMb: peakRssMb(),
};
await store.close();
console.log(JSON.stringify(result, null, 2));
saveBenchResult('search', result);
