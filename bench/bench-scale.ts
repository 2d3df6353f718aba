/**
 * Scale benchmark (issue 15): how ingest and search costs grow from 100k documents to FEVER's 5.4M, on the
 * real ingest path (FEVER wiki-pages reader -> prepare -> chunk -> LanceStore), and dense + hybrid search on
 * a 5M-passage subset with synthetic 512-d vectors.
 *
 *   node --import tsx bench/bench-scale.ts [--sizes 100000,500000,2000000,5400000] [--vectors 5000000]
 *        [--dir tmp/scale] [--queries 1000] [--vector-queries 200] [--recall-queries 50] [--batch 10000] [--keep]
 *
 * Issue 38 (toward English Wikipedia, ~50M passages): `--shape article` generates whole articles (~7.2 passages
 * a page, as 6.9M articles give ~50M passages) instead of FEVER's lead sections, `--vector-index ivf-pq` builds
 * LanceDB's compressed IVF-PQ index (64 bytes a vector) instead of HNSW-SQ and measures recall@100 against
 * exact search for each `--ivf-search nprobes:refine` setting, and `--results` keeps the run apart:
 *
 *   node --import tsx bench/bench-scale.ts --shape article --sizes 50000,400000 --vectors 1000000
 *        --vector-index ivf-pq --results bench/results/scale-wikipedia.json --dir tmp/scale-wiki
 *
 * At tens of millions of passages the generated corpus is itself tens of GB: `--gzip` writes it as
 * .jsonl.gz (the FEVER reader decompresses as it reads), and `--drop-corpus` deletes the corpus files once
 * the passages are written, before the BM25 build, where disk peaks (the queries stay in the .meta.json
 * beside the folder; not with a dense phase, which reads the corpus again):
 *
 *   node --import tsx bench/bench-scale.ts --shape article --sizes 10200000 --vectors 0 --gzip --drop-corpus
 *        --results bench/results/scale-wikipedia-big.json --dir tmp/scale-big
 *
 * Each size runs in its own child processes (generate, ingest, search) so peak RSS is per phase. Results
 * are printed per size with the growth against the previous size and saved to bench/results/scale.json
 * after every phase (a long run that is stopped keeps what it measured). Machine load (uptime) is recorded
 * at the start and end of each phase: other processes share the 2 cores.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Retriever } from '../src/retrieve/retriever.js';
import { ingestSource } from '../src/store/ingest.js';
import { indexCacheBytesFor, indexFilesBytes } from '../src/store/lance-index-cache.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { finishFeverLikeParts, writeFeverLikeCorpus, writeFeverLikePart, type FeverLikeCorpus, type FeverLikeOptions, type FeverLikePart } from './synthetic-fever.js';
import { ClusteredEmbedder } from './synthetic-vectors.js';
import { dirSize, machine, peakRssMb, percentile } from './util.js';
import * as lancedb from '@lancedb/lancedb';
import type { VectorSearchOptions } from '../src/store/lancedb-store.js';

const { values } = parseArgs({
  options: {
    phase: { type: 'string', default: 'all' },
    sizes: { type: 'string', default: '100000,500000,2000000,5400000' },
    vectors: { type: 'string', default: '5000000' },
    dir: { type: 'string', default: 'tmp/scale' },
    queries: { type: 'string', default: '1000' },
    'vector-queries': { type: 'string', default: '200' },
    'recall-queries': { type: 'string', default: '50' },
    batch: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '42' },
    keep: { type: 'boolean', default: false },
    gzip: { type: 'boolean', default: false },
    // Generate with this many processes, each file from its own seed (another corpus than one process's).
    parts: { type: 'string', default: '1' },
    part: { type: 'string' },
    'drop-corpus': { type: 'boolean', default: false },
    // Child-phase arguments.
    corpus: { type: 'string' },
    index: { type: 'string' },
    documents: { type: 'string' },
    'per-doc': { type: 'string' },
    // Dense search: LanceDB's index cache in GB; default: the store sizes it for the index (lance-index-cache.ts).
    'cache-gb': { type: 'string', default: '' },
    shape: { type: 'string', default: 'fever' },
    'vector-index': { type: 'string', default: 'hnsw-sq' },
    // IVF-PQ search settings measured (timing and recall), `nprobes:refineFactor` (refine 0: none).
    'ivf-search': { type: 'string', default: '20:0,30:10,60:20' },
    results: { type: 'string', default: 'bench/results/scale.json' },
  },
});
const DIR = resolve(values.dir!);
const SEED = Number(values.seed);
const RESULTS = values.results!;
const SHAPE = values.shape === 'article' ? 'article' : 'fever';
const IVF_PQ = values['vector-index'] === 'ivf-pq';
const IVF_SETTINGS = values['ivf-search']!.split(',').filter(Boolean).map((s) => {
  const [nprobes, refine] = s.split(':').map(Number);
  return { nprobes: nprobes!, refineFactor: refine || undefined };
});

function log(msg: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
}

function load(): string {
  return loadavg().map((x) => x.toFixed(2)).join(' ');
}

/** RSS sampled every second: the peak of the whole process tree is what the user's machine must hold. */
function rssSampler(): { peakMb: () => number; stop: () => void } {
  let peak = 0;
  const t = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 1000);
  t.unref();
  return { peakMb: () => Math.max(Math.round(peak / 2 ** 20), peakRssMb()), stop: () => clearInterval(t) };
}

function emit(result: unknown): void {
  // The parent reads the last line that starts with this marker.
  console.log(`RESULT ${JSON.stringify(result)}`);
}

// ---------------------------------------------------------------------------------------------- phases

function corpusOptions(documents: number): FeverLikeOptions {
  return { seed: SEED, documents, queries: Number(values.queries), shape: SHAPE, gzip: values.gzip };
}

async function phaseGenerate(): Promise<void> {
  const documents = Number(values.documents);
  const t = performance.now();
  const parts = Number(values.parts);
  if (parts > 1) {
    // Parallel: one child a part, then the meta from what they sampled.
    rmSync(values.corpus!, { recursive: true, force: true });
    const written = await Promise.all(Array.from({ length: parts }, (_, part) => runChild('generate-part', { corpus: values.corpus!, documents, part, parts })));
    const corpus = finishFeverLikeParts(values.corpus!, corpusOptions(documents), written as unknown as FeverLikePart[]);
    emit({ seconds: +((performance.now() - t) / 1000).toFixed(1), documents: corpus.documents, sentences: corpus.sentences, files: corpus.files, parts, bytes: dirSize(values.corpus!) });
    return;
  }
  const corpus = await writeFeverLikeCorpus(values.corpus!, {
    seed: SEED,
    documents,
    queries: Number(values.queries),
    shape: SHAPE,
    gzip: values.gzip,
    onProgress: (d) => log(`  generated ${d.toLocaleString()} / ${documents.toLocaleString()} pages`),
  });
  emit({ seconds: +((performance.now() - t) / 1000).toFixed(1), documents: corpus.documents, sentences: corpus.sentences, files: corpus.files, bytes: dirSize(values.corpus!) });
}

async function phaseGeneratePart(): Promise<void> {
  const documents = Number(values.documents);
  const part = Number(values.part);
  const written = await writeFeverLikePart(values.corpus!, { ...corpusOptions(documents), onProgress: (d) => log(`  part ${part}: generated ${d.toLocaleString()} / ${documents.toLocaleString()} pages`) }, part, Number(values.parts));
  emit(written);
}

async function phaseIngest(withVectors: boolean): Promise<void> {
  const rss = rssSampler();
  const indexDir = values.index!;
  rmSync(indexDir, { recursive: true, force: true });
  const store = await LanceStore.open(indexDir);
  const total = Number(values.documents);
  const started = performance.now();
  let last = { t: started, passages: 0 };
  let nextLog = started + 15_000;
  const embedder = withVectors ? new ClusteredEmbedder(512) : undefined;
  const windows: { documents: number; passagesPerSecond: number }[] = [];
  const summary = await ingestSource(store, values.corpus!, {
    format: 'fever',
    batchSize: Number(values.batch),
    embedder,
    buildIndex: false,
    onProgress: (p) => {
      const now = performance.now();
      if (now < nextLog || p.phase !== 'reading') return;
      nextLog = now + 15_000;
      const rate = (p.passages - last.passages) / ((now - last.t) / 1000);
      windows.push({ documents: p.documents, passagesPerSecond: Math.round(rate) });
      last = { t: now, passages: p.passages };
      const overall = p.documents / ((now - started) / 1000);
      const eta = (total - p.documents) / overall;
      log(`  ${p.documents.toLocaleString()} / ${total.toLocaleString()} docs, ${p.passages.toLocaleString()} passages, ${Math.round(rate).toLocaleString()} passages/s now, RSS ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MB, ETA ${Math.round(eta)} s, load ${load()}`);
    },
  });
  const writeSeconds = (performance.now() - started) / 1000;
  let corpusDroppedBytes: number | undefined;
  if (values['drop-corpus']) {
    // The corpus is read: free its disk before the BM25 build, where the index's disk use peaks.
    corpusDroppedBytes = dirSize(values.corpus!);
    rmSync(values.corpus!, { recursive: true, force: true });
    log(`  corpus files deleted (${(corpusDroppedBytes / 2 ** 30).toFixed(1)} GB; --drop-corpus)`);
  }
  log(`  written in ${writeSeconds.toFixed(0)} s; building the BM25 index`);
  let t = performance.now();
  await store.buildTextIndex();
  const textIndexSeconds = (performance.now() - t) / 1000;
  log(`  BM25 index in ${textIndexSeconds.toFixed(0)} s`);
  let vectorIndexSeconds: number | undefined;
  let vectorIndex: string | undefined;
  if (withVectors && IVF_PQ) {
    // IVF-PQ: one partition per ~4,096 vectors, 64 sub-vectors of 8 dimensions (64 bytes a vector in the
    // index); the full vectors stay in the table for the refine step. k-means at 20 iterations: at
    // LanceDB's default 50 the training alone took 166 s on 16k vectors on the shared cores.
    t = performance.now();
    const n = await store.passagesTable!.countRows();
    const numPartitions = Math.max(16, Math.round(n / 4096));
    await store.passagesTable!.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions, numSubVectors: 64, maxIterations: 20 }), replace: true });
    vectorIndex = `ivf-pq (${numPartitions} partitions, 64 sub-vectors, 20 k-means iterations)`;
    vectorIndexSeconds = (performance.now() - t) / 1000;
    log(`  vector index (${vectorIndex}) in ${vectorIndexSeconds.toFixed(0)} s`);
  } else if (withVectors) {
    t = performance.now();
    vectorIndex = await store.buildVectorIndex();
    vectorIndexSeconds = (performance.now() - t) / 1000;
    log(`  vector index (${vectorIndex}) in ${vectorIndexSeconds.toFixed(0)} s`);
  }
  const seconds = (performance.now() - started) / 1000;
  const stats = await store.stats();
  await store.close();
  rss.stop();
  const bytes = dirSize(indexDir);
  emit({
    documents: summary.documents,
    passages: summary.passages,
    sentences: summary.sentences,
    skipped: summary.skipped,
    writeSeconds: +writeSeconds.toFixed(1),
    textIndexSeconds: +textIndexSeconds.toFixed(1),
    vectorIndex,
    vectorIndexSeconds: vectorIndexSeconds === undefined ? undefined : +vectorIndexSeconds.toFixed(1),
    seconds: +seconds.toFixed(1),
    passagesPerSecond: Math.round(summary.passages / seconds),
    writePassagesPerSecond: Math.round(summary.passages / writeSeconds),
    windows,
    indexBytes: bytes,
    bytesPerPassage: Math.round(bytes / summary.passages),
    tables: Object.fromEntries(readdirSync(indexDir).filter((n) => n.endsWith('.lance')).map((n) => [n, dirSize(join(indexDir, n))])),
    peakRssMb: rss.peakMb(),
    textIndexed: stats.textIndexed,
    corpusDroppedBytes,
  });
}

function summarise(times: number[], wall: number) {
  const s = [...times].sort((a, b) => a - b);
  return { p50Ms: +percentile(s, 50).toFixed(2), p95Ms: +percentile(s, 95).toFixed(2), queriesPerSecond: +((1000 * s.length) / wall).toFixed(1) };
}

async function phaseSearch(): Promise<void> {
  const rss = rssSampler();
  const corpus = JSON.parse(readFileSync(`${values.corpus}.meta.json`, 'utf8')) as FeverLikeCorpus;
  const t0 = performance.now();
  const store = await LanceStore.open(values.index!, { create: false });
  const openMs = performance.now() - t0;
  const table = store.passagesTable!;
  const K = 100;
  const COLUMNS = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text', '_score'];
  const raw = (q: string) => table.query().fullTextSearch(q, { columns: 'search_text' }).select(COLUMNS).limit(K).toArrow();
  const queries = corpus.queries;
  // Warm-up: the first queries page the index in; a server pays that once.
  for (const q of queries.slice(0, 50)) {
    await raw(q.text);
    await store.searchText(q.text, K);
  }
  const times = { raw: [] as number[], ours: [] as number[] };
  const wall = { raw: 0, ours: 0 };
  let found = 0;
  let hits = 0;
  for (const q of queries) {
    let t = performance.now();
    await raw(q.text);
    let d = performance.now() - t;
    times.raw.push(d);
    wall.raw += d;
    t = performance.now();
    const res = await store.searchText(q.text, K);
    d = performance.now() - t;
    times.ours.push(d);
    wall.ours += d;
    hits += res.length;
    if (res.some((h) => h.passage.docId === q.docId)) found++;
  }
  // Lookups the verifier makes per claim: documents by id, title matches, a document's passages.
  const sample = queries.slice(0, 100);
  const lookup = async (f: (q: { text: string; docId: string }) => Promise<unknown>) => {
    const ts: number[] = [];
    let w = 0;
    for (const q of sample) {
      const t = performance.now();
      await f(q);
      const d = performance.now() - t;
      ts.push(d);
      w += d;
    }
    return summarise(ts, w);
  };
  const getDocuments = await lookup((q) => store.getDocuments([q.docId]));
  const getPassages = await lookup((q) => store.getPassages(q.docId));
  const findTitles = await lookup((q) => store.findTitles([q.docId.split('_').slice(0, 2).join(' ').toLowerCase()]));
  let t = performance.now();
  const stats = await store.stats();
  const statsMs = performance.now() - t;
  await store.close();
  rss.stop();
  emit({
    passages: stats.passages,
    queries: queries.length,
    k: K,
    meanHits: +(hits / queries.length).toFixed(1),
    sourceFoundAt100: +(found / queries.length).toFixed(3),
    raw: summarise(times.raw, wall.raw),
    ours: summarise(times.ours, wall.ours),
    overheadRatio: +(wall.ours / wall.raw).toFixed(3),
    lookups: { getDocuments, getPassages, findTitles, statsMs: +statsMs.toFixed(1), openMs: +openMs.toFixed(1) },
    peakRssMb: rss.peakMb(),
  });
}

async function phaseDenseSearch(): Promise<void> {
  const rss = rssSampler();
  const corpus = JSON.parse(readFileSync(`${values.corpus}.meta.json`, 'utf8')) as FeverLikeCorpus;
  const cacheGb = values['cache-gb'] ? Number(values['cache-gb']) : undefined;
  const indexBytes = indexFilesBytes(values.index!);
  const indexFilesMb = Math.round(indexBytes / 2 ** 20);
  const autoBytes = indexCacheBytesFor(indexBytes);
  const cacheSize = cacheGb !== undefined ? `${cacheGb} GB (--cache-gb)` : autoBytes ? `${(autoBytes / 2 ** 30).toFixed(1)} GB (sized for ${indexFilesMb} MB of index files)` : "LanceDB's default 6 GB";
  const store = await LanceStore.open(values.index!, { create: false, indexCacheBytes: cacheGb === undefined ? undefined : cacheGb * 2 ** 30 });
  const cacheUse = () => {
    const u = store.indexCacheUse();
    return u ? { mb: Math.round(u.bytes / 2 ** 20), items: u.items } : undefined;
  };
  const embedder = new ClusteredEmbedder(512);
  const n = Number(values['vector-queries']);
  const texts = corpus.queries.slice(0, n).map((q) => q.text);
  const qvecs = await embedder.embed(texts.map((t, i) => `query ${i} ${t}`));
  const K = 100;
  if (IVF_PQ) return denseSearchIvf(store, embedder, texts, qvecs, rss);
  for (const v of qvecs.slice(0, 20)) await store.searchVectorIds(v, K); // warm-up
  const cacheAfterWarmup = cacheUse();
  log(`  index cache ${cacheSize}; after warm-up: ${cacheAfterWarmup ? `${cacheAfterWarmup.mb} MB in ${cacheAfterWarmup.items} entries` : 'not reported (default session)'}`);
  const ann: number[] = [];
  let annWall = 0;
  const full: number[] = [];
  let fullWall = 0;
  for (const v of qvecs) {
    let t = performance.now();
    await store.searchVectorIds(v, K);
    let d = performance.now() - t;
    ann.push(d);
    annWall += d;
    t = performance.now();
    await store.searchVector(v, K);
    d = performance.now() - t;
    full.push(d);
    fullWall += d;
  }
  const cacheAfterAnn = cacheUse();
  if (cacheAfterAnn) log(`  index cache after ANN queries: ${cacheAfterAnn.mb} MB in ${cacheAfterAnn.items} entries`);
  const retriever = new Retriever(store, embedder, { mode: 'hybrid' });
  for (const q of texts.slice(0, 10)) await retriever.search(q, { k: 10 });
  const hybrid: number[] = [];
  let hybridWall = 0;
  for (const q of texts) {
    const t = performance.now();
    await retriever.search(q, { k: 10 });
    const d = performance.now() - t;
    hybrid.push(d);
    hybridWall += d;
  }
  // Recall last: exact search reads every vector, which evicts the index from the page cache.
  log(`  timed ${qvecs.length} ANN and hybrid queries; exact search for recall`);
  let recall = 0;
  let exactWall = 0;
  const recallVecs = qvecs.slice(0, Number(values['recall-queries']));
  for (const [i, v] of recallVecs.entries()) {
    const a = await store.searchVectorIds(v, K);
    const t = performance.now();
    const exact = await store.searchVectorIds(v, K, { exact: true });
    exactWall += performance.now() - t;
    const truth = new Set(exact.map((h) => h.id));
    recall += a.filter((h) => truth.has(h.id)).length / Math.max(1, truth.size);
    if ((i + 1) % 20 === 0) log(`  recall over ${i + 1} queries: ${(recall / (i + 1)).toFixed(4)}`);
  }
  const stats = await store.stats();
  await store.close();
  rss.stop();
  emit({
    passages: stats.passages,
    dimension: 512,
    queries: qvecs.length,
    recallQueries: recallVecs.length,
    recallAt100: +(recall / recallVecs.length).toFixed(4),
    ann: summarise(ann, annWall),
    annWithPassages: summarise(full, fullWall),
    hybrid: summarise(hybrid, hybridWall),
    exactMsPerQuery: +(exactWall / recallVecs.length).toFixed(0),
    indexCache: { size: cacheSize, indexFilesMb, afterWarmup: cacheAfterWarmup, afterAnn: cacheAfterAnn },
    peakRssMb: rss.peakMb(),
  });
}

/**
 * IVF-PQ search: for each `--ivf-search` setting, ANN top-100 timing over all queries and recall@100 against
 * exact search on the first `--recall-queries`; hybrid (BM25 + ANN + fusion through `Retriever`) with the
 * last setting, the store's vector search given that setting.
 */
async function denseSearchIvf(store: LanceStore, embedder: ClusteredEmbedder, texts: string[], qvecs: Float32Array[], rss: { peakMb: () => number; stop: () => void }): Promise<void> {
  const K = 100;
  const recallVecs = qvecs.slice(0, Number(values['recall-queries']));
  log(`  exact search for ${recallVecs.length} recall queries`);
  let exactWall = 0;
  const truths: Set<string>[] = [];
  for (const v of recallVecs) {
    const t = performance.now();
    truths.push(new Set((await store.searchVectorIds(v, K, { exact: true })).map((h) => h.id)));
    exactWall += performance.now() - t;
  }
  const settings: Record<string, unknown>[] = [];
  for (const opts of IVF_SETTINGS) {
    for (const v of qvecs.slice(0, 20)) await store.searchVectorIds(v, K, opts); // warm-up
    const ann: number[] = [];
    let wall = 0;
    for (const v of qvecs) {
      const t = performance.now();
      await store.searchVectorIds(v, K, opts);
      const d = performance.now() - t;
      ann.push(d);
      wall += d;
    }
    let recall = 0;
    for (const [i, v] of recallVecs.entries()) {
      const a = await store.searchVectorIds(v, K, opts);
      recall += a.filter((h) => truths[i]!.has(h.id)).length / Math.max(1, truths[i]!.size);
    }
    const r = { nprobes: opts.nprobes, refineFactor: opts.refineFactor ?? 0, recallAt100: +(recall / recallVecs.length).toFixed(4), ann: summarise(ann, wall) };
    log(`  ivf-pq nprobes ${r.nprobes} refine ${r.refineFactor}: recall@100 ${r.recallAt100}, p50 ${r.ann.p50Ms} ms, p95 ${r.ann.p95Ms} ms`);
    settings.push(r);
  }
  const last: VectorSearchOptions = IVF_SETTINGS[IVF_SETTINGS.length - 1]!;
  // The store searched with the chosen IVF-PQ setting; everything else is the store itself.
  const tuned = new Proxy(store, {
    get(target, prop) {
      if (prop === 'searchVector') return (v: Float32Array, k: number) => target.searchVector(v, k, last);
      const x = Reflect.get(target, prop) as unknown;
      return typeof x === 'function' ? (x as (...a: unknown[]) => unknown).bind(target) : x;
    },
  });
  const retriever = new Retriever(tuned, embedder, { mode: 'hybrid' });
  for (const q of texts.slice(0, 10)) await retriever.search(q, { k: 10 });
  const hybrid: number[] = [];
  let hybridWall = 0;
  for (const q of texts) {
    const t = performance.now();
    await retriever.search(q, { k: 10 });
    const d = performance.now() - t;
    hybrid.push(d);
    hybridWall += d;
  }
  const stats = await store.stats();
  await store.close();
  rss.stop();
  emit({
    passages: stats.passages,
    dimension: 512,
    vectorIndex: 'ivf-pq',
    queries: qvecs.length,
    recallQueries: recallVecs.length,
    settings,
    hybrid: { ...summarise(hybrid, hybridWall), nprobes: last.nprobes, refineFactor: last.refineFactor ?? 0 },
    exactMsPerQuery: +(exactWall / recallVecs.length).toFixed(0),
    peakRssMb: rss.peakMb(),
  });
}

// ---------------------------------------------------------------------------------------------- parent

function runChild(phase: string, args: Record<string, string | number>): Promise<Record<string, unknown>> {
  const argv = ['--import', 'tsx', 'bench/bench-scale.ts', '--phase', phase, '--seed', String(SEED), '--batch', values.batch!, ...(values['cache-gb'] ? ['--cache-gb', values['cache-gb']] : []), '--queries', values.queries!, '--vector-queries', values['vector-queries']!, '--recall-queries', values['recall-queries']!, '--shape', SHAPE, '--vector-index', values['vector-index']!, '--ivf-search', values['ivf-search']!, '--results', RESULTS, ...(values.gzip ? ['--gzip'] : []), ...(values['drop-corpus'] ? ['--drop-corpus'] : []), '--parts', values.parts!];
  for (const [k, v] of Object.entries(args)) argv.push(`--${k}`, String(v));
  const loadBefore = load();
  const started = performance.now();
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let result: Record<string, unknown> | undefined;
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7)) as Record<string, unknown>;
        else console.log(line);
      }
    });
    child.on('exit', (code) => {
      if (code !== 0 || !result) rej(new Error(`phase ${phase} failed (exit ${code})`));
      else res({ ...result, wallSeconds: +((performance.now() - started) / 1000).toFixed(1), loadBefore, loadAfter: load() });
    });
  });
}

interface SizeResult {
  documents: number;
  corpus?: Record<string, unknown>;
  ingest?: Record<string, unknown>;
  search?: Record<string, unknown>;
}

function save(out: { sizes: SizeResult[]; dense?: Record<string, unknown> }): void {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(RESULTS, JSON.stringify({ benchmark: 'scale', ...out, machine: machine(), createdAt: new Date().toISOString() }, null, 2));
}

function growthTable(sizes: SizeResult[]): string {
  const rows = ['| docs | passages | ingest s | passages/s | vs prev | bytes/passage | peak RSS MB | BM25 p50 / p95 ms (ours) | raw p95 | ours/raw | q/s |', '|---|---|---|---|---|---|---|---|---|---|---|'];
  let prev: SizeResult | undefined;
  for (const s of sizes) {
    const i = s.ingest as { passages: number; seconds: number; passagesPerSecond: number; bytesPerPassage: number; peakRssMb: number } | undefined;
    const q = s.search as { ours: { p50Ms: number; p95Ms: number; queriesPerSecond: number }; raw: { p95Ms: number }; overheadRatio: number } | undefined;
    const pi = prev?.ingest as { passagesPerSecond: number } | undefined;
    const growth = i && pi ? `${((i.passagesPerSecond / pi.passagesPerSecond) * 100).toFixed(0)}%` : '';
    rows.push(`| ${s.documents.toLocaleString()} | ${i?.passages.toLocaleString() ?? ''} | ${i?.seconds ?? ''} | ${i?.passagesPerSecond ?? ''} | ${growth} | ${i?.bytesPerPassage ?? ''} | ${i?.peakRssMb ?? ''} | ${q ? `${q.ours.p50Ms} / ${q.ours.p95Ms}` : ''} | ${q?.raw.p95Ms ?? ''} | ${q?.overheadRatio ?? ''} | ${q?.ours.queriesPerSecond ?? ''} |`);
    prev = s;
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  switch (values.phase) {
    case 'generate':
      return phaseGenerate();
    case 'generate-part':
      return phaseGeneratePart();
    case 'ingest':
      return phaseIngest(false);
    case 'ingest-dense':
      return phaseIngest(true);
    case 'search':
      return phaseSearch();
    case 'dense-search':
      return phaseDenseSearch();
    case 'dense': {
      // The dense part alone, on an existing corpus: --corpus <fever folder> --documents N --per-doc P.
      mkdirSync(DIR, { recursive: true });
      // The sizes measured by an earlier run stay in the results file beside the new dense figures.
      const earlier = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { sizes?: SizeResult[] }) : {};
      const out: { sizes: SizeResult[]; dense?: Record<string, unknown> } = { sizes: earlier.sizes ?? [] };
      out.dense = await runDense(resolve(values.corpus!), Number(values.documents), Number(values['per-doc']), (d) => {
        out.dense = d;
        save(out);
      });
      save(out);
      console.log(JSON.stringify(out.dense, null, 2));
      return;
    }
    case 'all':
      break;
    default:
      throw new Error(`unknown --phase ${values.phase}`);
  }
  mkdirSync(DIR, { recursive: true });
  const sizes = values.sizes!.split(',').filter(Boolean).map(Number);
  const out: { sizes: SizeResult[]; dense?: Record<string, unknown>; load: Record<string, string> } = { sizes: [], load: { start: load() } };
  if (values['drop-corpus'] && Number(values.vectors) > 0) throw new Error('--drop-corpus deletes the corpus the dense phase reads: pass --vectors 0 with it, or leave it out');
  log(`scale benchmark (${SHAPE} pages${IVF_PQ ? ', IVF-PQ vectors' : ''}): sizes ${sizes.join(', ')}, vectors ${values.vectors}; load ${load()}`);
  for (const documents of sizes) {
    const corpus = join(DIR, `${SHAPE}-${SEED}-${documents}${values.gzip ? '-gz' : ''}`);
    const index = join(DIR, `index-${SHAPE}-${SEED}-${documents}`);
    const r: SizeResult = { documents };
    out.sizes.push(r);
    log(`== ${documents.toLocaleString()} documents: generating`);
    r.corpus = await runChild('generate', { corpus, documents });
    save(out);
    log(`== ${documents.toLocaleString()} documents: ingest`);
    r.ingest = await runChild('ingest', { corpus, index, documents });
    save(out);
    log(`== ${documents.toLocaleString()} documents: search`);
    r.search = await runChild('search', { corpus, index });
    save(out);
    console.log(growthTable(out.sizes));
    if (!values.keep && documents !== sizes[sizes.length - 1]) rmSync(index, { recursive: true, force: true });
  }
  if (Number(values.vectors) > 0) {
    const largest = sizes[sizes.length - 1]!;
    const last = out.sizes[out.sizes.length - 1]!;
    out.dense = await runDense(join(DIR, `${SHAPE}-${SEED}-${largest}${values.gzip ? '-gz' : ''}`), largest, (last.ingest as { passages: number }).passages / largest, (d) => {
      out.dense = d;
      save(out);
    });
  }
  out.load.end = load();
  save(out);
  console.log(growthTable(out.sizes));
  if (out.dense) console.log(JSON.stringify(out.dense, null, 2));
  log(`saved ${RESULTS}`);
}

/**
 * The dense subset: the first files of the largest corpus, enough for `--vectors` passages (files are
 * linked, not copied; the FEVER reader reads a folder of .jsonl files), ingested with synthetic vectors.
 */
async function runDense(src: string, largest: number, perDoc: number, saveNow: (dense: Record<string, unknown>) => void): Promise<Record<string, unknown>> {
  const wantPassages = Number(values.vectors);
  {
    const files = readdirSync(src).filter((n) => /\.jsonl(\.gz)?$/.test(n)).sort();
    const perFile = 50_000;
    const nFiles = Math.min(files.length, Math.ceil(wantPassages / perDoc / perFile));
    const subset = join(DIR, `dense-subset-${nFiles}`);
    rmSync(subset, { recursive: true, force: true });
    mkdirSync(subset);
    for (const f of files.slice(0, nFiles)) symlinkSync(join(src, f), join(subset, f));
    const srcMeta = JSON.parse(readFileSync(`${src}.meta.json`, 'utf8')) as FeverLikeCorpus;
    // Queries whose page is in the subset (pages are numbered in file order).
    const queries = srcMeta.queries.filter((q) => Number(q.docId.split('_').pop()) < nFiles * perFile);
    writeFileSync(`${subset}.meta.json`, JSON.stringify({ ...srcMeta, dir: subset, documents: nFiles * perFile, queries }));
    const index = join(DIR, `dense-index-${nFiles}`);
    log(`== vectors: ${nFiles} files (~${Math.round(nFiles * perFile * perDoc).toLocaleString()} passages), 512-d`);
    const dense: Record<string, unknown> = { loadStart: load() };
    dense.ingest = await runChild('ingest-dense', { corpus: subset, index, documents: Math.min(largest, nFiles * perFile) });
    saveNow(dense);
    log('== vectors: search');
    dense.search = await runChild('dense-search', { corpus: subset, index });
    dense.loadEnd = load();
    return dense;
  }
}

await main();
