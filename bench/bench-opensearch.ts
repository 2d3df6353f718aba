/**
 * The live OpenSearch cluster (`npm run opensearch:start`) beside the embedded LanceDB index, on this
 * machine. Two parts; each saves bench/results/opensearch-<part>.json.
 *
 *   --part scifact --lance DIR   SciFact: DIR is a LanceDB index of the full corpus with vectors
 *                                (`veracite index corpus.jsonl --format scifact --dense --index DIR`). Its
 *                                passages and vectors are copied into OpenSearch (the ingest rate with
 *                                vectors), then `veracite eval retrieval` (the CLI, its own process) scores
 *                                SciFact dev on both, --mode bm25 and --mode hybrid: nDCG@10 side by side.
 *   --part scale --passages N    synthetic ~100-word passages (bench/synthetic.ts): ingest into both (rate),
 *                                then BM25 top-100 through the Store, interleaved query by query: p50/p95.
 *
 *   OPENSEARCH_URL=http://127.0.0.1:9200 node --import tsx bench/bench-opensearch.ts --part scale --passages 200000
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { OpenSearchStore } from '../src/store/opensearch/opensearch-store.js';
import type { DocumentWithPassages } from '../src/store/types.js';
import { syntheticQueries, writeSyntheticCorpus } from './synthetic.js';
import { percentile, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'scale' },
    lance: { type: 'string', default: 'tmp/h/scifact-lance' },
    claims: { type: 'string', default: '../shared/data/scifact/claims_dev.jsonl' },
    corpus: { type: 'string', default: '../shared/data/scifact/corpus.jsonl' },
    passages: { type: 'string', default: '200000' },
    queries: { type: 'string', default: '300' },
    shards: { type: 'string', default: '2' },
    dir: { type: 'string', default: 'tmp/bench-opensearch' },
    seed: { type: 'string', default: '42' },
  },
});
const url = process.env.OPENSEARCH_URL;
if (!url) throw new Error('set OPENSEARCH_URL (npm run opensearch:start prints it)');
const host = new URL(url).host;
const shards = Number(values.shards);
const load = () => loadavg().map((x) => +x.toFixed(1));
const nodes = async () => ((await (await fetch(`${new URL(url).origin}/_cat/nodes?format=json`)).json()) as unknown[]).length;
const machine = async () => ({ cores: cpus().length, nodes: await nodes(), shards, replicas: 0, heap: '512m a node' });

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/veracite.js', ...args], { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, OPENSEARCH_URL: url } });
  if (r.status !== 0) throw new Error(`veracite ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return r;
}

async function scifact(): Promise<void> {
  mkdirSync(values.dir, { recursive: true });
  const name = `bench-scifact-${Date.now().toString(36)}`;
  const spec = `opensearch+http://${host}/${name}`;
  const ids = readFileSync(values.corpus, 'utf8').split('\n').filter((l) => l.trim()).map((l) => String((JSON.parse(l) as { doc_id: number }).doc_id));
  const loadStart = load();
  let lanceDir = values.lance;
  let ingest: Record<string, unknown>;
  let passages = 0;
  const modes = ['bm25'];
  const dense = existsSync(lanceDir) && (await (async () => {
    const l = await LanceStore.open(lanceDir, { create: false });
    const d = await l.vectorDimension();
    await l.close();
    return d !== undefined;
  })());
  if (dense) {
    // The same passages and the same vectors in both engines: the comparison is of the engines alone.
    modes.push('hybrid');
    const lance = await LanceStore.open(lanceDir, { create: false });
    const os = await OpenSearchStore.open(spec, { shards, replicas: 0 });
    for (const [k, v] of Object.entries(lance.settings)) if (k !== 'fts') await os.setSetting(k, v);
    let writeMs = 0; // OpenSearch's bulk writes only, not the reads from LanceDB
    for (let i = 0; i < ids.length; i += 500) {
      const docs = await lance.getDocuments(ids.slice(i, i + 500));
      const batch: DocumentWithPassages[] = [];
      for (const doc of docs) {
        const ps = await lance.getPassages(doc.id);
        const vecs = await lance.passageVectors(ps.map((p) => p.id));
        batch.push({ doc, passages: ps, vectors: ps.map((p) => vecs.get(p.id)!.vector) });
        passages += ps.length;
      }
      const t0 = performance.now();
      await os.upsert(batch);
      writeMs += performance.now() - t0;
    }
    await os.buildTextIndex();
    await os.close();
    await lance.close();
    ingest = { opensearchWithVectors: { passagesPerSecond: Math.round(passages / (writeMs / 1000)), seconds: +(writeMs / 1000).toFixed(1) } };
  } else {
    // BM25 only: both indexes built by the CLI, as a user builds them.
    lanceDir = `${values.dir}/scifact-lance`;
    rmSync(lanceDir, { recursive: true, force: true });
    const run = (index: string) => {
      const t0 = performance.now();
      const r = JSON.parse(cli(['index', values.corpus, '--format', 'scifact', '--index', index, '--quiet', '--json']).stdout) as { stats: { passages: number } };
      const p = r.stats.passages;
      passages = p;
      return { passages: p, seconds: +((performance.now() - t0) / 1000).toFixed(1), passagesPerSecond: Math.round(p / ((performance.now() - t0) / 1000)) };
    };
    ingest = { lancedbCli: run(lanceDir), opensearchCli: run(spec) };
  }
  const evals: Record<string, Record<string, number>> = {};
  for (const mode of modes) {
    for (const [engine, index] of [['lancedb', lanceDir], ['opensearch', spec]] as const) {
      const out = `${values.dir}/scifact-${engine}-${mode}.json`;
      const t0 = performance.now();
      cli(['eval', 'retrieval', '--index', index, '--task', 'scifact', '--queries', values.claims, '--mode', mode, '--quiet', '--out', out]);
      const r = JSON.parse(readFileSync(out, 'utf8')) as { metrics: Record<string, number>; timing: { queriesPerSecond: number } };
      evals[`${engine}-${mode}`] = { ndcg10: +r.metrics['ndcg@10']!.toFixed(4), recall100: +r.metrics['recall@100']!.toFixed(4), queriesPerSecond: +r.timing.queriesPerSecond.toFixed(1), seconds: +((performance.now() - t0) / 1000).toFixed(1) };
      console.error(engine, mode, evals[`${engine}-${mode}`]);
    }
  }
  const result = {
    benchmark: 'opensearch-scifact',
    index: spec,
    lanceIndex: lanceDir,
    documents: ids.length,
    passages,
    ingest,
    evals,
    ndcg10Difference: Object.fromEntries(modes.map((m) => [m, +(evals[`opensearch-${m}`]!['ndcg10']! - evals[`lancedb-${m}`]!['ndcg10']!).toFixed(4)])),
    hybrid: dense ? 'measured' : `not measured: ${lanceDir} has no vectors (build one with veracite index --dense and pass --lance)`,
    // The CLI-built index (BM25 only) has the CLI's default of 3 primaries, not --shards.
    cluster: { ...(await machine()), shards: dense ? shards : 3 },
    loadAverage: { start: loadStart, end: load() },
    command: `OPENSEARCH_URL=${url} node --import tsx bench/bench-opensearch.ts --part scifact${dense ? ` --lance ${values.lance}` : ''}`,
  };
  console.log(JSON.stringify(result, null, 2));
  saveBenchResult('opensearch-scifact', result);
}

async function scale(): Promise<void> {
  const n = Number(values.passages);
  const seed = Number(values.seed);
  mkdirSync(values.dir, { recursive: true });
  const corpus = `${values.dir}/synthetic-${seed}-${n}.jsonl`;
  if (!existsSync(corpus)) await writeSyntheticCorpus(corpus, { seed, passages: n });
  const lanceDir = `${values.dir}/lance-${seed}-${n}`;
  rmSync(lanceDir, { recursive: true, force: true });
  const name = `bench-scale-${n}-${Date.now().toString(36)}`;
  const loadStart = load();

  let t = performance.now();
  const os = await OpenSearchStore.open(`opensearch+http://${host}/${name}`, { shards, replicas: 0, bulkDocuments: 200 });
  const osSummary = await ingestSource(os, corpus, { format: 'jsonl', batchSize: 2000, onProgress: (p) => p.documents % 20000 === 0 && console.error(`opensearch: ${p.passages} passages, load ${load()[0]}`) });
  const osIngest = { seconds: +((performance.now() - t) / 1000).toFixed(1), passagesPerSecond: Math.round(osSummary.passages / ((performance.now() - t) / 1000)) };
  const loadAfterOs = load();
  t = performance.now();
  const lance = await LanceStore.open(lanceDir);
  const lanceSummary = await ingestSource(lance, corpus, { format: 'jsonl', batchSize: 20000 });
  const lanceIngest = { seconds: +((performance.now() - t) / 1000).toFixed(1), passagesPerSecond: Math.round(lanceSummary.passages / ((performance.now() - t) / 1000)) };
  console.error('ingest', { osIngest, lanceIngest });

  const queries = syntheticQueries(seed + 1, Number(values.queries));
  for (const q of queries.slice(0, 30)) {
    await os.searchText(q, 100);
    await lance.searchText(q, 100);
  }
  const times = { opensearch: [] as number[], lancedb: [] as number[] };
  const loadQueries = load();
  for (const q of queries) {
    let t0 = performance.now();
    await os.searchText(q, 100);
    times.opensearch.push(performance.now() - t0);
    t0 = performance.now();
    await lance.searchText(q, 100);
    times.lancedb.push(performance.now() - t0);
  }
  const pct = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50Ms: +percentile(s, 50).toFixed(1), p95Ms: +percentile(s, 95).toFixed(1) };
  };
  const passages = (await os.stats()).passages;
  const result = {
    benchmark: 'opensearch-scale',
    passages,
    lancePassages: (await lance.stats()).passages,
    queries: queries.length,
    k: 100,
    ingest: { opensearch: osIngest, lancedb: lanceIngest },
    bm25Top100: { opensearch: pct(times.opensearch), lancedb: pct(times.lancedb) },
    cluster: await machine(),
    loadAverage: { start: loadStart, afterOpenSearchIngest: loadAfterOs, queries: loadQueries, end: load() },
    command: `OPENSEARCH_URL=${url} node --import tsx bench/bench-opensearch.ts --part scale --passages ${n}`,
  };
  await os.drop();
  await os.close();
  await lance.close();
  console.log(JSON.stringify(result, null, 2));
  saveBenchResult(`opensearch-scale-${n}`, result);
}

if (values.part === 'scifact') await scifact();
else if (values.part === 'scale') await scale();
else throw new Error(`--part scifact|scale, not ${values.part}`);
