/**
 * `veracite calibrate`: choose the failed-verification threshold of the audit on a labelled dev set (WiCE
 * claim_dev: not_supported vs supported, and not/partially vs supported), sweeping precision and recall,
 * and save threshold + curve under models/calibration/.
 * `veracite eval citation-detection` / `eval citation-recovery`: the citation-audit evaluations (WiCE).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { saveCalibration, scoringHash, DEFAULT_CALIBRATION, type CalibrationDefinition, type CalibrationFile } from '../audit/calibration.js';
import { chooseOperatingPoint, f1, parseCriterion, type ThresholdCriterion } from '../audit/detection-metrics.js';
import { loadAuditScorer, type LoadedScorer } from '../audit/load-scorer.js';
import { QUERY_CONTEXTS, type QueryContext } from '../audit/query.js';
import { DEFAULT_SCORING, type Granularity } from '../audit/score-document.js';
import { POSITIVE_DEFINITIONS, detectionMetrics, rankerSupport, readWiceClaims, runCitationDetectionEval, scoreWiceClaims, type DetectionVariant, type PositiveDefinition } from '../eval/run-citation-detection.js';
import { CV_METHOD, rankingExamples, runCitationRecoveryEval, scoreRecovery } from '../eval/run-citation-recovery.js';
import { collectRecoveryCandidates, type CollectOptions } from '../eval/recovery-candidates.js';
import type { EvalQuery } from '../eval/retrieval-data.js';
import { corpusStats } from '../audit/corpus-stats.js';
import { RANK_FEATURES } from '../audit/rank-features.js';
import { DEFAULT_RANKER_FILE, SourceRanker, defaultRankerPath } from '../audit/source-ranker.js';
import { listwiseLoss, trainListwise } from '../audit/train-ranker.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { wiceTask } from '../eval/retrieval-data.js';
import { loadEmbedder } from '../models/registry.js';
import { configHash } from '../provenance/config-hash.js';
import { VERACITE_VERSION } from '../provenance/version.js';
import { Retriever } from '../retrieve/retriever.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { addScoringOptions, scoringConfigFrom, type ScoringFlags } from './command-audit.js';
import { oneOf, positiveInt } from './options.js';
import { createProgress } from './progress.js';

async function saveJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2) + '\n');
}

/** The command line as typed (the root program's raw arguments), for "how to regenerate this file". */
function commandLine(cmd: Command): string {
  let root = cmd;
  while (root.parent) root = root.parent;
  // commander keeps the argv it parsed in `rawArgs` (not in its typings).
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? process.argv;
  return ['veracite', ...raw.slice(2)].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

function criterionOption(value: string): ThresholdCriterion {
  try {
    return parseCriterion(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

interface CalibrateFlags extends ScoringFlags {
  data: string;
  out: string;
  criterion: ThresholdCriterion;
  partialCriterion: ThresholdCriterion;
  defaultDefinition: PositiveDefinition;
  embeddingCache?: string;
  ranker?: string;
  limit?: number;
  quiet?: boolean;
}

/** The ranker named by --ranker ("default" = models/source-ranker.json), checked against the engine. */
async function rankerFor(spec: string | undefined, loaded: LoadedScorer): Promise<{ ranker: SourceRanker; embedder: Embedder } | undefined> {
  if (!spec) return undefined;
  const ranker = await SourceRanker.load(spec === 'default' ? defaultRankerPath() : spec);
  const mismatch = ranker.mismatch(loaded.scorer.info);
  if (mismatch) throw new Error(`--ranker ${spec}: ${mismatch}`);
  if (!loaded.embedder) throw new Error(`--ranker ${spec}: the ranker needs the trained engine's USE encoder`);
  return { ranker, embedder: loaded.embedder };
}

export function registerCalibrateCommand(program: Command): void {
  addScoringOptions(
    program
      .command('calibrate')
      .description('choose the failed-verification threshold on a labelled dev set (WiCE claim_dev) and save it with its precision-recall curve')
      .requiredOption('--data <file>', 'WiCE claim_dev.jsonl (claim, meta.claim_context, evidence sentences, label)')
      .option('--out <file>', 'calibration JSON', DEFAULT_CALIBRATION)
      // The two definitions have very different base rates (WiCE dev: 12% vs 67%): max-F1 on the second
      // flags nearly everything, so it gets a precision target instead.
      .option('--criterion <c>', 'threshold for not_supported: max-f1 | precision:<p> (highest recall at precision >= p) | recall:<r>', criterionOption, { kind: 'max-f1' } as ThresholdCriterion)
      .option('--partial-criterion <c>', 'threshold for not_or_partially_supported (same forms)', criterionOption, { kind: 'precision', target: 0.8 } as ThresholdCriterion)
      .option('--default-definition <d>', `definition the audit flags with: ${Object.keys(POSITIVE_DEFINITIONS).join('|')}`, oneOf('--default-definition', Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]), 'not_supported')
      .option('--embedding-cache <dir>', 'on-disk embedding cache (re-runs skip embedding)')
      .option('--ranker <file>', "threshold the source ranker's score of the cited page instead of the engine's ('default' = models/source-ranker.json)")
      .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
      .option('--quiet', 'no progress output'),
  ).action(async (flags: CalibrateFlags, cmd: Command) => {
    const claims = (await readWiceClaims(flags.data)).slice(0, flags.limit);
    const loaded = await openScorer(flags);
    try {
      const cfg = scoringConfigFrom(flags);
      const bar = createProgress('calibrate', claims.length, 'claims', { quiet: flags.quiet });
      const engine = await scoreWiceClaims(loaded.scorer, claims, cfg, (d) => bar.update(d));
      bar.stop();
      const ranked = await rankerFor(flags.ranker, loaded);
      const support = ranked ? await rankerSupport(claims, engine, ranked.ranker, ranked.embedder, cfg.scoring.maxWords) : engine;
      const labels = claims.map((c) => c.label);
      const definitions: Record<string, CalibrationDefinition> = {};
      for (const def of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
        const { metrics, curve } = detectionMetrics(support, labels, def);
        // The curve is in support units with "flag when score <= threshold"; pick on the detection view.
        const criterion = def === 'not_supported' ? flags.criterion : flags.partialCriterion;
        const { point, met } = chooseOperatingPoint(curve, criterion);
        definitions[def] = {
          positives: [...POSITIVE_DEFINITIONS[def]],
          positivesCount: metrics.positives,
          criterion: criterionName(criterion),
          criterionMet: met,
          threshold: point.threshold,
          atThreshold: { precision: point.precision, recall: point.recall, f1: f1(point), flagged: point.flagged },
          rocAuc: metrics.rocAuc,
          averagePrecision: metrics.averagePrecision,
          precisionAt15Recall: metrics.precisionAt15Recall,
          curve: curve.map((p) => ({ threshold: p.threshold, precision: p.precision, recall: p.recall, flagged: p.flagged })),
        };
      }
      const labelCounts: Record<string, number> = {};
      for (const l of labels) labelCounts[l] = (labelCounts[l] ?? 0) + 1;
      const file: CalibrationFile = {
        format: 'veracite-calibration',
        version: 1,
        command: commandLine(cmd),
        data: { path: flags.data, n: claims.length, labelCounts },
        scorer: loaded.scorer.info,
        ...(ranked ? { ranker: ranked.ranker.info } : {}),
        scoring: cfg.scoring,
        queryContext: cfg.queryContext,
        configHash: scoringHash(loaded.scorer.info, cfg.scoring, cfg.queryContext, ranked?.ranker.info),
        defaultDefinition: flags.defaultDefinition,
        definitions,
        createdAt: new Date().toISOString(),
      };
      await saveCalibration(flags.out, file);
      for (const [name, d] of Object.entries(definitions)) {
        console.log(`${name}: threshold ${d.threshold.toFixed(4)} (${d.criterion}${d.criterionMet ? '' : ', not met: max-f1 used'}) -> precision ${d.atThreshold.precision.toFixed(3)}, recall ${d.atThreshold.recall.toFixed(3)}, flagged ${d.atThreshold.flagged}/${claims.length}; ROC AUC ${d.rocAuc.toFixed(3)}, P@15%R ${d.precisionAt15Recall.toFixed(3)}`);
      }
      console.log(`saved ${flags.out}`);
    } finally {
      await loaded.close();
    }
  });
}

function criterionName(c: ThresholdCriterion): string {
  return c.kind === 'max-f1' ? 'max-f1' : `${c.kind}>=${c.target}`;
}

function openScorer(flags: ScoringFlags & { embeddingCache?: string }): Promise<LoadedScorer> {
  return loadAuditScorer(flags.scorer, { onnx: { device: flags.device }, ...(flags.embeddingCache ? { embeddingCacheDir: flags.embeddingCache } : {}) });
}

/** "sentence/previous/48" -> a detection variant. */
function parseVariant(spec: string): DetectionVariant {
  const [g, c, p] = spec.split('/');
  if ((g !== 'sentence' && g !== 'passage') || !QUERY_CONTEXTS.includes(c as QueryContext) || !(p === 'all' || /^\d+$/.test(p ?? ''))) {
    throw new InvalidArgumentError(`variant "${spec}" must be <sentence|passage>/<${QUERY_CONTEXTS.join('|')}>/<all|n>`);
  }
  return { name: spec, scoring: { ...DEFAULT_SCORING, granularity: g as Granularity, preselect: p === 'all' ? 0 : Number(p) }, queryContext: c as QueryContext };
}

/** The comparison behind the audit's defaults: granularity x query context, all units, plus the audit's pre-selection. */
export const DEFAULT_DETECTION_VARIANTS = ['sentence/none/all', 'sentence/previous/all', 'sentence/full/all', 'passage/none/all', 'passage/previous/all', 'passage/full/all', `sentence/none/${DEFAULT_SCORING.preselect}`];

export function registerCitationEvals(evalCmd: Command): void {
  evalCmd
    .command('citation-detection')
    .description('WiCE dev: detect unsupported citations from the cited page (PR curve, P@15%R, ROC AUC) for two positive definitions, beside BM25/TF-IDF baselines')
    .requiredOption('--data <file>', 'WiCE claim_dev.jsonl')
    .option('--scorer <spec>', "'trained' (default), 'lexical', or an ONNX cross-encoder", 'trained')
    .option('--variants <list>', 'comma-separated granularity/context/preselect specs', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean), DEFAULT_DETECTION_VARIANTS)
    .option('--embedding-cache <dir>', 'on-disk embedding cache', 'tmp/embcache-wice')
    .option('--device <device>', 'ONNX device: cpu|cuda', oneOf('--device', ['cpu', 'cuda'] as const), 'cpu')
    .option('--ranker <file>', "also score the source ranker's signal ('default' = models/source-ranker.json)")
    .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
    .option('--out <file>', 'result JSON', 'eval-results/citation-detection.json')
    .option('--quiet', 'no progress output')
    .action(async (flags: { data: string; scorer: string; variants: string[]; embeddingCache: string; device: 'cpu' | 'cuda'; ranker?: string; limit?: number; out: string; quiet?: boolean }, cmd: Command) => {
      const variants = flags.variants.map(parseVariant);
      const claims = (await readWiceClaims(flags.data)).slice(0, flags.limit);
      const loaded = await loadAuditScorer(flags.scorer, { onnx: { device: flags.device }, embeddingCacheDir: flags.embeddingCache });
      try {
        const ranked = await rankerFor(flags.ranker, loaded);
        let bar: ReturnType<typeof createProgress> | undefined;
        let current = '';
        const result = await runCitationDetectionEval({
          data: flags.data,
          claims,
          scorer: loaded.scorer,
          variants,
          ...(ranked ? { ranker: ranked } : {}),
          onVariant: (name, done, total) => {
            if (name !== current) {
              bar?.stop();
              current = name;
              bar = createProgress(`detection ${name}`, total, 'claims', { quiet: flags.quiet });
            }
            bar!.update(done);
          },
        });
        bar?.stop();
        const provenance = { models: [loaded.scorer.info, ...(loaded.embedder ? [loaded.embedder.info] : []), ...(ranked ? [ranked.ranker.info] : [])], configHash: configHash({ variants, scorer: loaded.scorer.info.id }), veraciteVersion: VERACITE_VERSION, command: commandLine(cmd) };
        await saveJson(flags.out, { ...result, provenance });
        const row = (name: string, m: Record<PositiveDefinition, { rocAuc: number; precisionAt15Recall: number; averagePrecision: number }>, extra = '') =>
          console.log(`  ${name.padEnd(26)} not_supported: AUC ${m.not_supported.rocAuc.toFixed(3)} P@15%R ${m.not_supported.precisionAt15Recall.toFixed(3)} AP ${m.not_supported.averagePrecision.toFixed(3)} | +partial: AUC ${m.not_or_partially_supported.rocAuc.toFixed(3)} P@15%R ${m.not_or_partially_supported.precisionAt15Recall.toFixed(3)} AP ${m.not_or_partially_supported.averagePrecision.toFixed(3)}${extra}`);
        console.log(`WiCE dev citation detection, ${result.n} claims (${JSON.stringify(result.labelCounts)}), scorer ${result.scorer.id}`);
        for (const v of result.variants) row(v.name, v.metrics, ` (${v.seconds.toFixed(0)} s)`);
        for (const b of result.baselines) row(`baseline ${b.name}`, b.metrics);
        console.log(`  URL depth: ${result.urlDepthBaseline}`);
        console.log(`best: ${result.best.name}; saved ${flags.out}`);
      } finally {
        await loaded.close();
      }
    });

  addScoringOptions(recoveryOptions(evalCmd.command('citation-recovery')))
    .description('WiCE dev: hide the citation and retrieve it from the cited pages pooled with SciFact abstracts (P@1, SR@10, SR@100: bm25, dense, union, union reranked by the engine and by the source ranker)')
    .option('--folds <n>', 'grouped cross-validation folds for the held-out ranker figure', positiveInt('--folds'), 5)
    .option('--seed <n>', 'fold assignment seed', (v: string) => Number.parseInt(v, 10), 13)
    .option('--ranker <file>', 'shipped source ranker also scored (default models/source-ranker.json when present)')
    .option('--out <file>', 'result JSON', 'eval-results/citation-recovery.json')
    .action(async (flags: RecoveryFlags & { folds: number; seed: number; ranker?: string; out: string }, cmd: Command) => {
      await withRecoverySetup(flags, async (setup) => {
        const rankerPath = flags.ranker ?? (existsSync(defaultRankerPath()) ? defaultRankerPath() : undefined);
        const ranker = rankerPath ? await SourceRanker.load(rankerPath) : undefined;
        const mismatch = ranker?.mismatch(setup.loaded.scorer.info);
        if (mismatch) throw new Error(`${rankerPath}: ${mismatch}`);
        const bar = createProgress('recovery', setup.queries.length, 'queries', { quiet: flags.quiet });
        const result = await runCitationRecoveryEval({ ...setup.collect, folds: flags.folds, seed: flags.seed, ...(ranker ? { ranker } : {}), onProgress: (d) => bar.update(d) });
        bar.stop();
        const config = { ...setup.config, folds: flags.folds, seed: flags.seed };
        const models = [setup.embedder.info, setup.loaded.scorer.info, ...(ranker ? [ranker.info] : [])];
        await saveJson(flags.out, { ...result, provenance: await setup.provenance(models, config, commandLine(cmd)) });
        console.log(`WiCE citation recovery: ${result.nQueries} queries, ${setup.corpus}`);
        for (const m of result.methods) {
          console.log(`  ${m.method.padEnd(28)} P@1 ${m.metrics['p@1'].toFixed(3)}  SR@10 ${m.metrics['sr@10'].toFixed(3)}  SR@100 ${m.metrics['sr@100'].toFixed(3)}  MRR ${m.metrics.mrr.toFixed(3)}`);
        }
        console.log(`  ${CV_METHOD} vs ${result.headline.bestFirstStage} at rank 1: ${result.versusFirstStage.gained} claims gained, ${result.versusFirstStage.lost} lost; P@1 over fold seeds: ${result.cvSeeds.map((s) => `${s.p1.toFixed(3)} (seed ${s.seed})`).join(', ')}`);
        if (ranker && ranker.file.training['queries'] === flags.queries) console.log(`  (the shipped ranker was trained on these queries: its line is in-sample; ${CV_METHOD} is the held-out figure)`);
        console.log(`saved ${flags.out}`);
      });
    });
}

interface RecoveryFlags extends ScoringFlags {
  index: string;
  queries: string;
  corpus?: string[];
  depth: number;
  passagesPerDoc: number;
  embeddingCache: string;
  limit?: number;
  quiet?: boolean;
}

/** Options shared by `eval citation-recovery` and `train-ranker` (same candidates, same features). */
function recoveryOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--index <dir>', 'pooled index (built with --corpus when missing; needs vectors)')
    .requiredOption('--queries <file>', 'WiCE retrieval_dev_queries.jsonl')
    .option('--corpus <files...>', 'corpora to pool when the index does not exist (e.g. retrieval_dev_corpus.jsonl scifact/corpus.jsonl)')
    .option('--depth <n>', 'documents taken from each first-stage list for reranking', positiveInt('--depth'), 20)
    .option('--passages-per-doc <n>', 'retrieved passages per document the engine scores', positiveInt('--passages-per-doc'), 3)
    .option('--embedding-cache <dir>', 'on-disk embedding cache for the scorer', 'tmp/embcache-wice')
    .option('--limit <n>', 'first n queries only', positiveInt('--limit'))
    .option('--quiet', 'no progress output');
}

interface RecoverySetup {
  queries: EvalQuery[];
  collect: CollectOptions;
  loaded: LoadedScorer;
  embedder: Embedder;
  config: Record<string, unknown>;
  corpus: string;
  provenance(models: ModelInfo[], config: Record<string, unknown>, command: string): Promise<Record<string, unknown>>;
}

async function withRecoverySetup(flags: RecoveryFlags, run: (s: RecoverySetup) => Promise<void>): Promise<void> {
  const embedder = await loadEmbedder('use');
  if (!existsSync(flags.index)) {
    if (!flags.corpus?.length) throw new Error(`${flags.index} does not exist: pass --corpus <files...> to build the pooled index`);
    await buildPooledIndex(flags.index, flags.corpus, embedder, flags.quiet);
  }
  const store = await LanceStore.open(flags.index, { create: false });
  try {
    if ((await store.vectorDimension()) === undefined) throw new Error(`${flags.index} has no vectors: rebuild with --corpus (dense)`);
    if (flags.scorer !== 'trained' && !flags.scorer.startsWith('trained:')) throw new Error(`--scorer ${flags.scorer}: the source ranker's features need the trained engine (its USE encoder)`);
    const loaded = await loadAuditScorer(flags.scorer, { onnx: { device: flags.device }, embeddingCacheDir: flags.embeddingCache, embedder });
    try {
      const task = await wiceTask(flags.queries);
      const queries = task.queries.slice(0, flags.limit);
      const retriever = new Retriever(store, embedder, { mode: 'hybrid', fusion: { method: 'union' }, sparseK: 100, denseK: 100 });
      const cfg = scoringConfigFrom(flags);
      const stats = await corpusStats(store, flags.index);
      const st = await store.stats();
      const config = { scoring: cfg.scoring, depth: flags.depth, passagesPerDoc: flags.passagesPerDoc, retriever: retriever.config, features: RANK_FEATURES };
      await run({
        queries,
        loaded,
        embedder,
        config,
        corpus: `${st.documents} documents / ${st.passages} passages pooled`,
        collect: { queries, qrels: task.qrels, store, retriever, scorer: loaded.scorer, scoring: cfg.scoring, stats, embedder: loaded.embedder ?? embedder, depth: flags.depth, passagesPerDoc: flags.passagesPerDoc },
        provenance: async (models, config, command) => ({
          index: flags.index,
          snapshot: await store.snapshot(),
          engine: store.engine,
          corpus: { documents: st.documents, passages: st.passages },
          models,
          config,
          configHash: configHash(config),
          veraciteVersion: VERACITE_VERSION,
          command,
        }),
      });
    } finally {
      await loaded.close();
    }
  } finally {
    await store.close();
  }
}

/** `veracite train-ranker`: fit the source ranker on claims with known cited pages (WiCE dev). */
export function registerTrainRankerCommand(program: Command): void {
  addScoringOptions(recoveryOptions(program.command('train-ranker')))
    .description('train the source ranker (rank features -> listwise linear model) on claims with known cited pages; reports grouped cross-validation first')
    .option('--folds <n>', 'grouped cross-validation folds reported before the final fit', positiveInt('--folds'), 5)
    .option('--seed <n>', 'fold assignment seed', (v: string) => Number.parseInt(v, 10), 13)
    .option('--out <file>', 'weights file', DEFAULT_RANKER_FILE)
    .action(async (flags: RecoveryFlags & { folds: number; seed: number; out: string }, cmd: Command) => {
      await withRecoverySetup(flags, async (setup) => {
        const bar = createProgress('features', setup.queries.length, 'queries', { quiet: flags.quiet });
        const claims = await collectRecoveryCandidates({ ...setup.collect, onProgress: (d) => bar.update(d) });
        bar.stop();
        const held = scoreRecovery(claims, setup.collect.qrels, { folds: flags.folds, seed: flags.seed });
        const examples = rankingExamples(claims);
        const weights = trainListwise(examples, RANK_FEATURES.length);
        const p1 = (m: string) => held.methods.find((x) => x.method === m)!.metrics['p@1'];
        const training = {
          command: commandLine(cmd),
          queries: flags.queries,
          index: flags.index,
          snapshot: await setup.collect.store.snapshot(),
          claims: claims.length,
          candidates: claims.reduce((s, c) => s + c.candidates.length, 0),
          config: setup.config,
          objective: 'listwise softmax cross-entropy, L2 0.01, 3000 full-batch steps of 0.5 from zero',
          crossValidation: { folds: flags.folds, seed: flags.seed, groupedBy: 'article', p1: { bm25: p1('bm25'), dense: p1('dense'), union: p1('union'), engine: p1('union+verify'), ranker: p1(CV_METHOD) } },
          trainLoss: listwiseLoss(weights, examples),
        };
        await mkdir(dirname(flags.out), { recursive: true });
        await SourceRanker.save(flags.out, SourceRanker.serialise(weights, setup.loaded.scorer.info, setup.embedder.info.id, training));
        console.log(`source ranker: ${claims.length} claims, ${training.candidates} candidates`);
        console.log(`  ${flags.folds}-fold CV by article, P@1: bm25 ${p1('bm25').toFixed(3)}, engine alone ${p1('union+verify').toFixed(3)}, ranker ${p1(CV_METHOD).toFixed(3)}`);
        console.log(`  weights: ${RANK_FEATURES.map((f, j) => `${f} ${weights[j]!.toFixed(2)}`).join(', ')}`);
        console.log(`saved ${flags.out}`);
      });
    });
}

async function buildPooledIndex(dir: string, corpora: string[], embedder: Awaited<ReturnType<typeof loadEmbedder>>, quiet?: boolean): Promise<void> {
  const store = await LanceStore.open(dir);
  const cache = await EmbeddingCache.open(dir, embedder);
  await store.setSetting('embedder', embedder.info);
  try {
    for (const path of corpora) {
      const bar = createProgress(`index ${path}`, 0, 'docs', { quiet, rates: ['passages'] });
      await ingestSource(store, path, { embedder, embeddingCache: cache, onProgress: (p) => bar.update(p.records, { passages: p.passages }) });
      bar.stop();
    }
  } finally {
    cache.close();
    await store.close();
  }
}
