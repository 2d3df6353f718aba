/**
 * Claim verification speed on the SciFact index with the default offline models: one claim end to end
 * (retrieve up to 200 passages, select evidence, verdict), p50/p95 latency, and batch throughput.
 * Usage: node --import tsx bench/bench-verify.ts [--corpus data/samples/scifact/corpus.jsonl]
 *        [--claims data/samples/scifact/claims_dev.jsonl] [--n 100] [--mode bm25|hybrid]
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
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
const mode = values.mode as 'bm25' | 'dense' | 'hybrid';
const indexDir = `${values.dir}/verify-${mode}-${values.corpus!.replace(/\W+/g, '_')}`;
// The pipeline as `veracite verify --mode M --depth 200 --evidence E` builds it.
const settings = { index: { dir: indexDir }, retrieval: { mode, depth: 200 }, verify: { evidence: values.evidence as 'sentence' | 'document' } };
if (!existsSync(indexDir)) {
  const writer = await Veracite.open({ ...settings, retrieval: { mode: 'auto' as const } }, { create: true });
  const s = await writer.ingest(values.corpus!, { dense: mode !== 'bm25' });
  console.log(`indexed ${s.documents} documents, ${s.passages} passages in ${s.seconds.toFixed(1)} s`);
  await writer.close();
}
const vc = await Veracite.open(settings);
const verifier = await vc.verifier();
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
await vc.close();
console.log(JSON.stringify(result, null, 2));
saveBenchResult(`verify-${mode}`, result);
