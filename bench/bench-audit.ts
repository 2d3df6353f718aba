/**
 * Audit speed: a real article with >= 50 URL citations (default: the English "Toronto", 121 citations), audited against a local index (no live fetch),
 * with the default settings (trained scorer, hybrid recommendations when the index has vectors).
 * Target: 50 citations in under 30 s on the 2-core machine.
 *
 * There is no copy of the article's cited pages offline, so the bench index is the WiCE pooled index (349
 * cited pages + 5,183 SciFact abstracts, dense) plus, for each distinct cited URL of the article, one real
 * web page from WiCE stored under that URL: the pages are unrelated to the claims (scores are meaningless)
 * but their sizes are those of real cited pages, which is what the cost depends on.
 *
 *   node --import tsx bench/bench-audit.ts [--article FILE --title T] [--base-index DIR] [--pages FILE] [--limit 50] [--scorer trained]
 * The base index is the one `veracite eval citation-recovery --index DIR --corpus <wice corpus> <scifact corpus>` builds.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { CitationAuditor } from '../src/audit/audit.js';
import { loadArticleInput } from '../src/audit/article-input.js';
import { loadAuditScorer } from '../src/audit/load-scorer.js';
import { loadRankerDeps } from '../src/audit/load-ranker.js';
import { loadEmbedder } from '../src/models/registry.js';
import { Retriever } from '../src/retrieve/retriever.js';
import { SourceResolver } from '../src/sources/resolve-source.js';
import { EmbeddingCache } from '../src/store/embedding-cache.js';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { peakRssMb, percentile, saveBenchResult } from './util.js';

const { values: args } = parseArgs({
  options: {
    article: { type: 'string', default: '/work/shared/data/wikitext/toronto.txt' },
    title: { type: 'string', default: 'Toronto' },
    'base-index': { type: 'string', default: 'tmp/audit/wice-pooled' },
    pages: { type: 'string', default: '/work/shared/data/wice/retrieval_dev_corpus.jsonl' },
    /** Default: tmp/bench/audit-index-<article file name> (the index holds that article's cited URLs). */
    index: { type: 'string' },
    limit: { type: 'string', default: '50' },
    scorer: { type: 'string', default: 'trained' },
  },
});

async function buildBenchIndex(urls: string[]): Promise<void> {
  const base = args['base-index']!;
  if (!existsSync(base)) throw new Error(`${base} missing: build it with "veracite eval citation-recovery --index ${base} --corpus <wice retrieval_dev_corpus.jsonl> <scifact corpus.jsonl> ..."`);
  await rm(args.index!, { recursive: true, force: true });
  await mkdir('tmp/bench', { recursive: true });
  await cp(base, args.index!, { recursive: true });
  const pages = (await readFile(args.pages!, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { doc_id: string; title: string; sentences: string[] });
  const lines = urls.map((url, i) => {
    const p = pages[i % pages.length]!;
    return JSON.stringify({ id: `bench-src-${i}`, title: p.title, url, sentences: p.sentences });
  });
  const file = 'tmp/bench/audit-source-pages.jsonl';
  await writeFile(file, lines.join('\n') + '\n');
  const embedder = await loadEmbedder('use');
  const store = await LanceStore.open(args.index!);
  const cache = await EmbeddingCache.open(args.index!, embedder);
  await ingestSource(store, file, { format: 'jsonl', embedder, embeddingCache: cache });
  cache.close();
  await store.close();
}

args.index ??= `tmp/bench/audit-index-${basename(args.article!).replace(/\.[^.]*$/, '')}`;
const input = await loadArticleInput(args.article!, { title: args.title! });
const withUrl = input.citations.filter((c) => c.source.url);
input.citations = withUrl.slice(0, Number(args.limit));
const urls = [...new Set(input.citations.map((c) => c.source.url!))];
if (!existsSync(args.index!)) await buildBenchIndex(urls);

const t0 = performance.now();
const store = await LanceStore.open(args.index!, { create: false });
const embedder = await loadEmbedder('use');
const loaded = await loadAuditScorer(args.scorer!, { embedder });
const retriever = new Retriever(store, embedder, { mode: 'hybrid', fusion: { method: 'union' }, sparseK: 100, denseK: 100 });
// The default source ranker, as `veracite audit` loads it (corpus statistics cached in the index after the first run).
const ranked = await loadRankerDeps(undefined, loaded, store, args.index!);
if ('reason' in ranked) console.error(`note: ${ranked.reason}`);
const models = [loaded.scorer.info, embedder.info, ...('ranker' in ranked ? [ranked.ranker.info] : [])];
const auditor = new CitationAuditor({ scorer: loaded.scorer, resolver: new SourceResolver({ store }), store, retriever, retrievalMode: 'hybrid', models, ...('ranker' in ranked ? { ranker: ranked } : {}) });
const t1 = performance.now();
const report = await auditor.auditArticle(input);
const t2 = performance.now();
await loaded.close();
await store.close();

const per = report.citations.map((c) => c.timingsMs.source + c.timingsMs.retrieve + c.timingsMs.score + c.timingsMs.rank).sort((a, b) => a - b);
const sum = (k: 'source' | 'retrieve' | 'score' | 'rank') => report.citations.reduce((s, c) => s + c.timingsMs[k], 0) / 1000;
const result = {
  benchmark: 'audit',
  article: args.article,
  citations: report.citations.length,
  distinctUrls: urls.length,
  sourcesFound: report.summary.byStatus.found ?? 0,
  scorer: loaded.scorer.info.id,
  ranker: 'ranker' in ranked ? ranked.ranker.info.id : `none (${ranked.reason})`,
  retrieval: 'hybrid (union of BM25 and USE dense), 5 candidates reranked',
  index: args.index,
  setupSeconds: +((t1 - t0) / 1000).toFixed(2),
  auditSeconds: +((t2 - t1) / 1000).toFixed(2),
  totalSeconds: +((t2 - t0) / 1000).toFixed(2),
  citationsPerSecond: +(report.citations.length / ((t2 - t1) / 1000)).toFixed(2),
  // Per-citation stage sums (citations overlap: concurrency 2, so these add up to more than the wall time).
  stageSeconds: { source: +sum('source').toFixed(2), retrieve: +sum('retrieve').toFixed(2), score: +sum('score').toFixed(2), rank: +sum('rank').toFixed(2) },
  perCitationMs: { p50: Math.round(percentile(per, 50)), p95: Math.round(percentile(per, 95)), max: Math.round(per.at(-1) ?? 0) },
  sentencesScored: report.citations.reduce((s, c) => s + (c.verification?.sentencesScored ?? 0), 0),
  embedderMemo: loaded.embedder ? { hits: loaded.embedder.hits, misses: loaded.embedder.misses } : undefined,
  targetSeconds: 30,
  peakRssMb: peakRssMb(),
};
console.log(JSON.stringify(result, null, 2));
saveBenchResult('audit', result);
