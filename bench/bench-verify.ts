/**
 * Claim verification speed on the SciFact index with the default offline models: one claim end to end
 * (retrieve up to 200 passages, select evidence, verdict), p50/p95 latency, and batch throughput.
 * Usage: node --import tsx bench/bench-verify.ts [--corpus data/samples/scifact/corpus.jsonl]
 *        [--claims data/samples/scifact/claims_dev.jsonl] [--n 100] [--mode bm25|hybrid]
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadVerifierModels } from '../src/models/registry.js';
import { Retriever, type SearchMode } from '../src/retrieve/retriever.js';
import { EmbeddingCache } from '../src/store/embedding-cache.js';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { Verifier } from '../src/verify/verifier.js';
import { peakRssMb, percentile, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: existsSync('../shared/data/scifact/corpus.jsonl') ? '../shared/data/scifact/corpus.jsonl' : 'data/samples/scifact/corpus.jsonl' },
    claims: { type: 'string', default: existsSync('../shared/data/scifact/claims_dev.jsonl') ? '../shared/data/scifact/claims_dev.jsonl' : 'data/samples/scifact/claims_dev.jsonl' },
    n: { type: 'string', default: '100' },
    mode: { type: 'string', default: 'bm25' },
    evidence: { type: 'string', default: 'sentence' },
    dir: { type: 'string', default: 'tmp/bench' },
  },
});
const mode = values.mode as SearchMode;
const models = await loadVerifierModels();
const indexDir = `${values.dir}/verify-${mode}-${values.corpus!.replace(/\W+/g, '_')}`;
const fresh = !existsSync(indexDir);
const store = await LanceStore.open(indexDir);
if (fresh) {
  const cache = mode === 'bm25' ? undefined : await EmbeddingCache.open(indexDir, models.embedder);
  const s = await ingestSource(store, values.corpus!, { embedder: mode === 'bm25' ? undefined : models.embedder, embeddingCache: cache });
  console.log(`indexed ${s.documents} documents, ${s.passages} passages in ${s.seconds.toFixed(1)} s`);
}
const retriever = new Retriever(store, mode === 'bm25' ? undefined : models.embedder, { mode, sparseK: 200, denseK: 200 });
const verifier = new Verifier(store, retriever, models, { documents: { mode }, evidence: { mode: values.evidence as 'sentence' | 'document' } });
const claims = readFileSync(values.claims!, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { claim: string }).claim).slice(0, Number(values.n));

await verifier.verify(claims[0]!); // warm-up: model sessions, page cache
const times: number[] = [];
const parts: Record<string, number[]> = {};
const t0 = performance.now();
for (const c of claims) {
  const v = await verifier.verify(c);
  times.push(v.timings.totalMs!);
  for (const [k, ms] of Object.entries(v.timings)) (parts[k] ??= []).push(ms);
}
const wall = (performance.now() - t0) / 1000;
times.sort((a, b) => a - b);
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const result = {
  benchmark: 'verify',
  corpus: values.corpus,
  claims: claims.length,
  mode,
  evidence: values.evidence,
  passageDepth: 200,
  p50Ms: +percentile(times, 50).toFixed(1),
  p95Ms: +percentile(times, 95).toFixed(1),
  claimsPerSecond: +(claims.length / wall).toFixed(2),
  medianStageMs: Object.fromEntries(Object.entries(parts).map(([k, xs]) => [k, +median(xs).toFixed(1)])),
  models: verifier.modelInfos().map((m) => m.id),
  peakRssMb: peakRssMb(),
};
await store.close();
console.log(JSON.stringify(result, null, 2));
saveBenchResult(`verify-${mode}`, result);
