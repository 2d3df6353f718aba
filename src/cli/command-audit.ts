/**
 * `veracite audit <article>`: check every citation of a Wikipedia article against its cited source (SIDE):
 * verification score (max passage score), failed-verification flag from a calibrated threshold, URL-depth
 * baseline, better sources from the index. Output: a text summary, JSON (--json / --out), a self-contained
 * HTML report (--html) and the citations as KILT/WAFER records (--kilt). Live fetching only with --fetch.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { CitationAuditor, DEFAULT_AUDIT_CONFIG } from '../audit/audit.js';
import { loadArticleInput } from '../audit/article-input.js';
import { findCalibration, flagRule, loadCalibration, scoringHash } from '../audit/calibration.js';
import { loadRankerDeps } from '../audit/load-ranker.js';
import { loadAuditScorer } from '../audit/load-scorer.js';
import { QUERY_CONTEXTS, type QueryContext } from '../audit/query.js';
import { renderAuditHtml, orderForReport, signalScore } from '../audit/report-html.js';
import type { Granularity } from '../audit/score-document.js';
import type { AuditConfig, AuditReport } from '../audit/types.js';
import { loadEmbedder } from '../models/registry.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { Retriever } from '../retrieve/retriever.js';
import { PageCache } from '../sources/page-cache.js';
import { SourceResolver, type SourceResolverOptions } from '../sources/resolve-source.js';
import { SnapshotFolder } from '../sources/snapshot-folder.js';
import { LanceStore } from '../store/lancedb-store.js';
import { writeKiltWafer } from '../wiki/index.js';
import { registerCalibrateCommand, registerCitationEvals } from './command-calibrate.js';
import { DEFAULT_INDEX, oneOf, positiveInt } from './options.js';
import { createProgress } from './progress.js';

export { registerCitationEvals };

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer (got "${value}")`);
    return n;
  };
}

export function finiteNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number (got "${value}")`);
    return n;
  };
}

/** Scoring flags shared by audit, calibrate and the citation evals (a threshold is only valid for the settings it was measured with). */
export function addScoringOptions(cmd: Command): Command {
  return cmd
    .option('--scorer <spec>', "verification engine: 'trained' (default), 'lexical' (no model), or an ONNX cross-encoder folder / hub id", 'trained')
    .option('--granularity <g>', 'passage score: sentence (max over its sentences) | passage (whole passage)', oneOf('--granularity', ['sentence', 'passage'] as const), DEFAULT_AUDIT_CONFIG.scoring.granularity)
    .option('--query-context <c>', `context in the verification query: ${QUERY_CONTEXTS.join('|')}`, oneOf('--query-context', QUERY_CONTEXTS), DEFAULT_AUDIT_CONFIG.queryContext)
    .option('--preselect <n>', 'units scored per page, best TF-IDF matches first (0 = all)', nonNegativeInt('--preselect'), DEFAULT_AUDIT_CONFIG.scoring.preselect)
    .option('--device <device>', 'ONNX device: cpu|cuda', oneOf('--device', ['cpu', 'cuda'] as const), 'cpu');
}

export interface ScoringFlags {
  scorer: string;
  granularity: Granularity;
  queryContext: QueryContext;
  preselect: number;
  device: 'cpu' | 'cuda';
}

export function scoringConfigFrom(flags: ScoringFlags): Pick<AuditConfig, 'scoring' | 'queryContext'> {
  return { scoring: { ...DEFAULT_AUDIT_CONFIG.scoring, granularity: flags.granularity, preselect: flags.preselect }, queryContext: flags.queryContext };
}

interface AuditFlags extends ScoringFlags {
  /** false with --no-index. */
  index: string | false;
  sources?: string;
  fetch?: boolean;
  cache: string;
  fetchTimeout: number;
  maxBytes: number;
  maxRedirects: number;
  wayback: boolean;
  title?: string;
  embedder: string;
  mode: 'auto' | 'bm25' | 'hybrid';
  recommend: boolean;
  candidates: number;
  suggestions: number;
  firstStageWeight: number;
  /** commander: a path, false for --no-ranker, undefined for the default. */
  ranker?: string | false;
  calibration?: string;
  definition?: string;
  threshold?: number;
  limit?: number;
  concurrency: number;
  json?: boolean;
  out?: string;
  html?: string;
  kilt?: string;
  quiet?: boolean;
}

async function saveText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

export function registerAuditCommands(program: Command): void {
  addScoringOptions(
    program
      .command('audit')
      .description('check the citations of a Wikipedia article against their sources and suggest better ones (SIDE)')
      .argument('<article>', 'wikitext file, rendered HTML file, KILT/WAFER .jsonl, or a URL (with --fetch)')
      .option('--index <dir>', 'index to look sources up in (by URL) and to recommend from', DEFAULT_INDEX)
      .option('--no-index', 'no index: sources from --sources / --fetch only, no recommendations')
      .option('--sources <dir>', 'folder of saved source pages (manifest.jsonl {url, path}, or files named by URL hash)')
      .option('--fetch', 'fetch sources (and a URL article) live: SSRF-guarded, cached, archive fallback for dead pages')
      .option('--cache <dir>', 'on-disk cache of fetched pages', '.veracite/page-cache')
      .option('--fetch-timeout <ms>', 'per-request timeout', positiveInt('--fetch-timeout'), 15000)
      .option('--max-bytes <n>', 'largest page read', positiveInt('--max-bytes'), 5 * 1024 * 1024)
      .option('--max-redirects <n>', 'redirect hops followed', nonNegativeInt('--max-redirects'), 5)
      .option('--no-wayback', 'do not try the Wayback Machine for dead pages without archive-url')
      .option('--title <title>', 'article title (wikitext files have none; default: from the file name)')
      .option('--embedder <spec>', "embedder of the index vectors (hybrid recommendations): 'use' or an ONNX folder / hub id", 'use')
      .option('--mode <mode>', 'recommendation retrieval: auto (hybrid when the index has vectors) | bm25 | hybrid', oneOf('--mode', ['auto', 'bm25', 'hybrid'] as const), 'auto')
      .option('--no-recommend', 'no source recommendations')
      .option('--candidates <n>', 'candidate documents reranked per citation', positiveInt('--candidates'), DEFAULT_AUDIT_CONFIG.recommend.candidates)
      .option('--suggestions <n>', 'suggested sources per citation at most', positiveInt('--suggestions'), DEFAULT_AUDIT_CONFIG.recommend.suggestions)
      .option('--ranker <file>', 'source ranker weights ordering the existing source and the candidates (default models/source-ranker.json)')
      .option('--no-ranker', 'order sources by the verification score alone')
      .option('--first-stage-weight <w>', 'weight of 1/first-stage-rank added to the verification score when ordering candidates', finiteNumber('--first-stage-weight'), DEFAULT_AUDIT_CONFIG.recommend.firstStageWeight)
      .option('--calibration <file>', 'threshold file from "veracite calibrate" (default models/calibration/wice-dev.json)')
      .option('--definition <name>', 'which calibrated definition flags: not_supported | not_or_partially_supported')
      .option('--threshold <x>', 'flag citations scoring at or below x (overrides the calibration)', finiteNumber('--threshold'))
      .option('--limit <n>', 'first n citations only', positiveInt('--limit'))
      .option('--concurrency <n>', 'citations audited at once', positiveInt('--concurrency'), DEFAULT_AUDIT_CONFIG.concurrency)
      .option('--json', 'print the report JSON on stdout')
      .option('--out <file>', 'write the report JSON here')
      .option('--html <file>', 'write a self-contained HTML report here')
      .option('--kilt <file>', 'write the citations as KILT/WAFER JSONL records here')
      .option('--quiet', 'no progress output'),
  ).action(async (article: string, flags: AuditFlags) => {
    const report = await runAudit(article, flags);
    if (flags.out) await saveText(flags.out, JSON.stringify(report, null, 2) + '\n');
    if (flags.html) await saveText(flags.html, renderAuditHtml(report));
    if (flags.json) console.log(JSON.stringify(report, null, 2));
    else printSummary(report, flags);
  });
  registerCalibrateCommand(program);
}

async function runAudit(article: string, flags: AuditFlags): Promise<AuditReport> {
  const fetchPolicy = { timeoutMs: flags.fetchTimeout, maxBytes: flags.maxBytes, maxRedirects: flags.maxRedirects };
  const input = await loadArticleInput(article, { ...(flags.title ? { title: flags.title } : {}), fetch: !!flags.fetch, fetchPolicy });
  if (flags.limit) input.citations = input.citations.slice(0, flags.limit);
  if (flags.kilt) {
    const r = await writeKiltWafer(flags.kilt, input.citations.map((c) => ({ ...c, source: { raw: '', ...c.source } })));
    if (!flags.quiet) console.error(`wrote ${r.written} WAFER records to ${flags.kilt}${r.skipped.length ? ` (${r.skipped.length} citations without URL left out)` : ''}`);
  }

  const indexDir = flags.index === false ? undefined : flags.index;
  const store = indexDir ? await LanceStore.open(indexDir, { create: false }) : undefined;
  let embedder: Embedder | undefined;
  let mode: 'bm25' | 'hybrid' = 'bm25';
  if (store && flags.recommend && flags.mode !== 'bm25') {
    const hasVectors = (await store.vectorDimension()) !== undefined;
    if (flags.mode === 'hybrid' && !hasVectors) throw new Error(`--mode hybrid: the index ${indexDir} has no vectors (build it with "veracite index --dense")`);
    if (hasVectors) {
      embedder = await loadEmbedder(flags.embedder, { device: flags.device });
      mode = 'hybrid';
    }
  }
  const loaded = await loadAuditScorer(flags.scorer, { onnx: { device: flags.device }, ...(embedder ? { embedder } : {}) });
  try {
    const resolverOpts: SourceResolverOptions = {};
    if (store) resolverOpts.store = store;
    if (flags.sources) resolverOpts.snapshots = await SnapshotFolder.open(flags.sources);
    if (flags.fetch) resolverOpts.fetch = { policy: fetchPolicy, cache: new PageCache(flags.cache), wayback: flags.wayback };
    const config = {
      ...scoringConfigFrom(flags),
      recommend: { ...DEFAULT_AUDIT_CONFIG.recommend, enabled: flags.recommend && !!store, mode: flags.mode, candidates: flags.candidates, suggestions: flags.suggestions, firstStageWeight: flags.firstStageWeight },
      concurrency: flags.concurrency,
    };
    // The source ranker orders suggestions and, with a ranker calibration, its score of the cited page is
    // the flag signal; it needs an index (corpus statistics), so --no-index audits use the engine alone.
    const ranked = store ? await loadRankerDeps(flags.ranker, loaded, store, indexDir) : { reason: 'no index' };
    const ranker = 'ranker' in ranked ? ranked.ranker.info : undefined;
    // Without --calibration, the committed calibration made for these exact settings: the ranker's when
    // one is loaded and calibrated, else the engine's.
    const calibration = flags.calibration
      ? await loadCalibration(flags.calibration)
      : ((ranker && (await findCalibration(scoringHash(loaded.scorer.info, config.scoring, config.queryContext, ranker), undefined, false))) ??
        (await findCalibration(scoringHash(loaded.scorer.info, config.scoring, config.queryContext))));
    const flag = flagRule(
      { ...(flags.threshold !== undefined ? { threshold: flags.threshold } : {}), ...(calibration ? { calibration } : {}), ...(flags.definition ? { definition: flags.definition } : {}) },
      { scorer: loaded.scorer.info, scoring: config.scoring, queryContext: config.queryContext, ...(ranker ? { ranker } : {}) },
    );
    if ('reason' in flag && !flags.quiet) console.error(`note: ${flag.reason}`);
    const models: ModelInfo[] = [loaded.scorer.info];
    if (loaded.embedder) models.push(loaded.embedder.info);
    if (embedder && embedder.info.id !== loaded.embedder?.info.id) models.push(embedder.info);
    if ('ranker' in ranked) models.push(ranked.ranker.info);
    else if (store && !flags.quiet) console.error(`note: ${ranked.reason}`);
    const retriever = store ? new Retriever(store, embedder, { mode, fusion: { method: 'union' }, sparseK: 100, denseK: 100 }) : undefined;
    const auditor = new CitationAuditor(
      { scorer: loaded.scorer, resolver: new SourceResolver(resolverOpts), ...(store && indexDir ? { store, indexDir } : {}), ...(retriever ? { retriever } : {}), retrievalMode: mode, models, flag, ...('ranker' in ranked ? { ranker: ranked } : {}) },
      config,
    );
    const bar = createProgress(`audit ${input.title}`, input.citations.length, 'citations', { quiet: flags.quiet });
    const report = await auditWithBar(auditor, input, bar);
    return report;
  } finally {
    await loaded.close();
    await store?.close();
  }
}

async function auditWithBar(auditor: CitationAuditor, input: Parameters<CitationAuditor['auditArticle']>[0], bar: ReturnType<typeof createProgress>): Promise<AuditReport> {
  try {
    return await auditor.auditArticle(input, (p) => bar.update(p.done));
  } finally {
    bar.stop();
  }
}

function printSummary(report: AuditReport, flags: AuditFlags): void {
  const s = report.summary;
  const statuses = Object.entries(s.byStatus).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`${report.article.title}: ${s.citations} citations in ${s.seconds.toFixed(1)} s; sources: ${statuses}; scored ${s.scored}, flagged ${s.flagged}, with suggestions ${s.withSuggestions}`);
  const signal = report.provenance.flagging.signal ?? 'engine';
  const { scored } = orderForReport(report.citations, signal);
  for (const c of scored.slice(0, 10)) {
    const flag = c.verification!.flagged ? ' FLAGGED' : '';
    console.log(`  ${signalScore(c, signal).toFixed(3)}${flag}  #${c.index + 1} ${c.claim.length > 90 ? c.claim.slice(0, 87) + '...' : c.claim}`);
  }
  if (scored.length > 10) console.log(`  ... ${scored.length - 10} more`);
  const outputs = [flags.out && `JSON ${flags.out}`, flags.html && `HTML ${flags.html}`, flags.kilt && `WAFER ${flags.kilt}`].filter(Boolean);
  if (outputs.length) console.log(`wrote ${outputs.join(', ')}`);
}
