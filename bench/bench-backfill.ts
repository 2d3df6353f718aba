/**
 * Vectors added to an existing BM25-only index (`embedMissing`, what `index --dense` on an existing index
 * runs): ingest a FEVER-like corpus without vectors, then embed every passage with synthetic 512-d vectors
 * through the Embedder interface, and report passages/s of the backfill and of its first and last tenth
 * (a merge cost that grew with the table would show as a slower last tenth). Then the vector index.
 *   node --import tsx bench/bench-backfill.ts [--documents 100000] [--batch 20000] [--dir tmp/backfill]
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { embedMissing } from '../src/store/dense-backfill.js';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { writeFeverLikeCorpus } from './synthetic-fever.js';
import { ClusteredEmbedder } from './synthetic-vectors.js';
import { dirSize, peakRssMb, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '20000' },
    dir: { type: 'string', default: 'tmp/backfill' },
  },
});
const documents = Number(values.documents);
const corpus = await writeFeverLikeCorpus(join(values.dir!, `fever-${documents}`), { seed: 5, documents });
const indexDir = join(values.dir!, `index-${documents}`);
rmSync(indexDir, { recursive: true, force: true });
const store = await LanceStore.open(indexDir);
const ingest = await ingestSource(store, corpus.dir, { format: 'fever', batchSize: 10_000 });
console.log(`BM25-only ingest: ${ingest.passages} passages in ${ingest.seconds.toFixed(1)} s`);
const embedder = new ClusteredEmbedder(512);
const marks: { embedded: number; t: number }[] = [];
const t0 = performance.now();
const summary = await embedMissing(store, embedder, {
  batchSize: Number(values.batch),
  buildIndex: false,
  onProgress: (p) => {
    marks.push({ embedded: p.embedded, t: (performance.now() - t0) / 1000 });
    if (marks.length % 10 === 0) console.log(`  ${p.embedded} / ${p.missing} passages, ${Math.round(p.passagesPerSecond)}/s, ETA ${Math.round(p.etaSeconds)} s, load ${loadavg()[0]!.toFixed(1)}`);
  },
});
const rate = (a: { embedded: number; t: number }, b: { embedded: number; t: number }) => Math.round((b.embedded - a.embedded) / (b.t - a.t));
const tenth = Math.max(1, Math.floor(marks.length / 10));
const t1 = performance.now();
const vectorIndex = await store.buildVectorIndex();
const vectorIndexSeconds = (performance.now() - t1) / 1000;
const counts = await store.vectorCounts();
await store.close();
const result = {
  benchmark: 'backfill',
  documents,
  passages: ingest.passages,
  ingestSeconds: +ingest.seconds.toFixed(1),
  backfillSeconds: +summary.seconds.toFixed(1),
  backfillPassagesPerSecond: Math.round(summary.embedded / summary.seconds),
  firstTenthPassagesPerSecond: rate({ embedded: 0, t: 0 }, marks[tenth - 1]!),
  lastTenthPassagesPerSecond: rate(marks[marks.length - 1 - tenth]!, marks[marks.length - 1]!),
  vectorIndex,
  vectorIndexSeconds: +vectorIndexSeconds.toFixed(1),
  withVector: counts.withVector,
  indexBytes: dirSize(indexDir),
  peakRssMb: peakRssMb(),
  loadAverage: loadavg().map((x) => +x.toFixed(2)),
};
console.log(JSON.stringify(result, null, 2));
saveBenchResult('backfill', result);
