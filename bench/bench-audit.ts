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
import { Veracite } from '../src/app/veracite.js';
import { loadArticleInput } from '../src/audit/article-input.js';
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
  const vc = await Veracite.open({ index: { dir: args.index! } }, { create: true });
  await vc.ingest(file, { format: 'jsonl', dense: true });
  await vc.close();
}

args.index ??= `tmp/bench/audit-index-${basename(args.article!).replace(/\.[^.]*$/, '')}`;
const input = await loadArticleInput(args.article!, { title: args.title! });
const withUrl = input.citations.filter((c) => c.source.url);
input.citations = withUrl.slice(0, Number(args.limit));
const urls = [...new Set(input.citations.map((c) => c.source.url!))];
if (!existsSync(args.index!)) await buildBenchIndex(urls);

const t0 = performance.now();
// The audit exactly as `veracite audit --index DIR --scorer S` assembles it (default ranker, calibration,
// hybrid union candidates; corpus statistics cached in the index after the first run).
const vc = await Veracite.open({ index: { dir: args.index! }, models: { scorer: args.scorer! } });
const pipeline = await vc.auditPipeline();
for (const note of pipeline.notes) console.error(`note: ${note}`);
const t1 = performance.now();
const report = await pipeline.auditor.auditArticle(input);
const t2 = performance.now();
const ranked = pipeline.deps.ranker;
const loaded = pipeline.engine;
await vc.close();

const per = report.citations.map((c) => c.timingsMs.source + c.timingsMs.retrieve + c.timingsMs.score + c.timingsMs.rank).sort((a, b) => a - b);
const sum = (k: 'source' | 'retrieve' | 'score' | 'rank') => report.citations.reduce((s, c) => s + c.timingsMs[k], 0) / 1000;
const result = {
  benchmark: 'audit',
  article: args.article,
  citations: report.citations.length,
  distinctUrls: urls.length,
  sourcesFound: report.summary.byStatus.found ?? 0,
  scorer: loaded.scorer.info.id,
  ranker: ranked ? ranked.ranker.info.id : `none (${pipeline.notes.join('; ')})`,
  support: pipeline.deps.support ? pipeline.deps.support.info.id : 'none (no probability of support)',
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
