/**
 * `veracite eval citation-recovery` and `veracite train-ranker`: both collect, for WiCE claims, the
 * first-stage rankings and the reranking candidates with their rank features (eval/recovery-candidates.ts)
 * from a pooled index (WiCE cited pages + SciFact abstracts), built on first use with --corpus. The engine,
 * the candidate retriever and the index come from the composition root, as in an audit.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { Engine } from '../app/models.js';
import type { SettingsInput } from '../app/settings.js';
import type { CollectOptions } from '../eval/recovery-candidates.js';
import type { EvalQuery } from '../eval/retrieval-data.js';
import { wiceTask } from '../eval/retrieval-data.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { configHash } from '../provenance/config-hash.js';
import { VERACITE_VERSION } from '../provenance/version.js';
import { SettingsError } from '../util/settings-error.js';
import { DEFAULT_RANKER_FILE } from '../audit/ranker-defaults.js';
import { commandLine, saveJson, withJsonOutput } from './command-line.js';
import { addOptions, positiveInt, settingsFrom, type OptionPick } from './options.js';
import { createProgress } from './progress.js';
import { BadDataError, MissingInputError } from '../util/exit-codes.js';

const RECOVERY_OPTIONS: OptionPick = { index: ['index'], models: ['embedder', 'scorer', 'device', 'cache'], scoring: true };
/** The candidates are SIDE's union of BM25 and dense lists; the engine's vectors persist across runs. */
const RECOVERY_BASE: SettingsInput = { retrieval: { mode: 'hybrid' }, audit: { fusion: 'union' }, models: { cache: 'tmp/embcache-wice' } };

export function registerCitationRecovery(evalCmd: Command): void {
  recoveryOptions(evalCmd.command('citation-recovery'))
    .description('WiCE dev: hide the citation and retrieve it from the cited pages pooled with SciFact abstracts (P@1, SR@10, SR@100: bm25, dense, union, union reranked by the engine and by the source ranker)')
    .option('--folds <n>', 'grouped cross-validation folds for the held-out ranker figure', positiveInt('--folds'), 5)
    .option('--seed <n>', 'fold assignment seed', (v: string) => Number.parseInt(v, 10), 13)
    .option('--ranker <file>', 'shipped source ranker also scored (default models/source-ranker.json when present)')
    .option('--out <file>', 'result JSON', 'eval-results/citation-recovery.json')
    .option('--name <name>', 'name of the data in the result (default: the queries file name)')
    .action((flags: RecoveryFlags & { folds: number; seed: number; ranker?: string; out: string; name?: string }, cmd: Command) =>
      withJsonOutput(flags.json, () => withRecoverySetup(flags, async (setup) => {
        const [{ SourceRanker, defaultRankerPath }, { CV_METHOD, runCitationRecoveryEval }] = await Promise.all([import('../audit/source-ranker.js'), import('../eval/run-citation-recovery.js')]);
        const rankerPath = flags.ranker ?? (existsSync(defaultRankerPath()) ? defaultRankerPath() : undefined);
        const ranker = rankerPath ? await SourceRanker.loadFor(setup.engine.scorer.info, rankerPath, '--ranker') : undefined;
        const bar = createProgress('recovery', setup.queries.length, 'queries', { quiet: flags.quiet });
        const result = await runCitationRecoveryEval({ ...setup.collect, data: flags.queries, ...(flags.name ? { name: flags.name } : {}), folds: flags.folds, seed: flags.seed, ...(ranker ? { ranker } : {}), onProgress: (d) => bar.update(d) });
        bar.stop();
        const config = { ...setup.config, folds: flags.folds, seed: flags.seed };
        const models = [setup.embedder.info, setup.engine.scorer.info, ...(ranker ? [ranker.info] : [])];
        const saved = { ...result, provenance: await setup.provenance(models, config, commandLine(cmd)) };
        await saveJson(flags.out, saved);
        console.log(`${result.name} citation recovery: ${result.nQueries} queries, ${setup.corpus}`);
        for (const m of result.methods) {
          console.log(`  ${m.method.padEnd(28)} P@1 ${m.metrics['p@1'].toFixed(3)}  SR@10 ${m.metrics['sr@10'].toFixed(3)}  SR@100 ${m.metrics['sr@100'].toFixed(3)}  MRR ${m.metrics.mrr.toFixed(3)}`);
        }
        console.log(`  ${CV_METHOD} vs ${result.headline.bestFirstStage} at rank 1: ${result.versusFirstStage.gained} claims gained, ${result.versusFirstStage.lost} lost; P@1 over fold seeds: ${result.cvSeeds.map((s) => `${s.p1.toFixed(3)} (seed ${s.seed})`).join(', ')}`);
        if (ranker && ranker.file.training['queries'] === flags.queries) console.log(`  (the shipped ranker was trained on these queries: its line is in-sample; ${CV_METHOD} is the held-out figure)`);
        console.log(`saved ${flags.out}`);
        return saved;
      })),
    );
}

interface RecoveryFlags extends Record<string, unknown> {
  index: string;
  queries: string;
  corpus?: string[];
  perList: number;
  passagesPerDoc: number;
  limit?: number;
  json?: boolean;
  quiet?: boolean;
}

/** Options shared by `eval citation-recovery` and `train-ranker` (same candidates, same features). */
function recoveryOptions(cmd: Command): Command {
  return addOptions(
    cmd
      .requiredOption('--queries <file>', 'WiCE retrieval_dev_queries.jsonl')
      .option('--corpus <files...>', 'corpora to pool when the index does not exist (e.g. retrieval_dev_corpus.jsonl scifact/corpus.jsonl)')
      .option('--per-list <n>', 'documents taken from each first-stage list (BM25, dense) and reranked', positiveInt('--per-list'), 20)
      .option('--passages-per-doc <n>', 'retrieved passages per document the engine scores', positiveInt('--passages-per-doc'), 3)
      .option('--limit <n>', 'first n queries only', positiveInt('--limit'))
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    RECOVERY_OPTIONS,
  );
}

interface RecoverySetup {
  queries: EvalQuery[];
  collect: CollectOptions;
  engine: Engine;
  embedder: Embedder;
  config: Record<string, unknown>;
  corpus: string;
  provenance(models: ModelInfo[], config: Record<string, unknown>, command: string): Promise<Record<string, unknown>>;
}

async function withRecoverySetup<T>(flags: RecoveryFlags, run: (s: RecoverySetup) => Promise<T>): Promise<T> {
  const [{ Veracite }, { auditConfigOf }, { corpusStats }, { RANK_FEATURES }] = await Promise.all([
    import('../app/veracite.js'),
    import('../app/audit.js'),
    import('../audit/corpus-stats.js'),
    import('../audit/rank-features.js'),
  ]);
  const settings = settingsFrom(flags, RECOVERY_OPTIONS, RECOVERY_BASE);
  const scorer = settings.models?.scorer ?? 'trained';
  // Checked before any index is built: the features need the trained engine's USE encoder.
  if (scorer !== 'trained' && !scorer.startsWith('trained:')) throw new SettingsError('models.scorer', `"${scorer}": the source ranker's features need the trained engine (its USE encoder)`);
  const dir = settings.index?.dir;
  if (!dir) throw new SettingsError('index.dir', 'the pooled index is required');
  if (!existsSync(dir)) {
    if (!flags.corpus?.length) throw new MissingInputError(`${dir} does not exist: pass --corpus <files...> to build the pooled index`);
    await buildPooledIndex(settings, flags.corpus, flags.quiet);
  }
  const vc = await Veracite.open(settings);
  try {
    const store = vc.requireStore();
    if (!vc.hasVectors) throw new BadDataError(`${dir} has no vectors: rebuild it with --corpus (dense)`);
    const engine = await vc.models.engine();
    const embedder = await vc.models.embedder();
    const task = await wiceTask(flags.queries);
    const queries = task.queries.slice(0, flags.limit);
    const retriever = vc.candidateRetriever();
    const scoring = auditConfigOf(vc.settings, vc.mode, false, vc.models.profile?.file.scoring).scoring;
    const stats = await corpusStats(store, dir);
    const st = await store.stats();
    const config = { scoring, depth: flags.perList, passagesPerDoc: flags.passagesPerDoc, retriever: retriever.config, features: RANK_FEATURES };
    return await run({
      queries,
      engine,
      embedder,
      config,
      corpus: `${st.documents} documents / ${st.passages} passages pooled`,
      collect: { queries, qrels: task.qrels, store, retriever, scorer: engine.scorer, scoring, stats, embedder: engine.embedder ?? embedder, depth: flags.perList, passagesPerDoc: flags.passagesPerDoc },
      provenance: async (models, config, command) => ({
        index: dir,
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
    await vc.close();
  }
}

/** `veracite train-ranker`: fit the source ranker on claims with known cited pages (WiCE dev). */
export function registerTrainRankerCommand(program: Command): void {
  recoveryOptions(program.command('train-ranker'))
    .description('train the source ranker (rank features -> listwise linear model) on claims with known cited pages; reports grouped cross-validation first')
    .option('--folds <n>', 'grouped cross-validation folds reported before the final fit', positiveInt('--folds'), 5)
    .option('--seed <n>', 'fold assignment seed', (v: string) => Number.parseInt(v, 10), 13)
    .option('--out <file>', 'weights file', DEFAULT_RANKER_FILE)
    .action((flags: RecoveryFlags & { folds: number; seed: number; out: string }, cmd: Command) =>
      withJsonOutput(flags.json, () => withRecoverySetup(flags, async (setup) => {
        const [{ RANK_FEATURES }, { SourceRanker }, { collectRecoveryCandidates }, { CV_METHOD, rankingExamples, scoreRecovery }, { listwiseLoss, trainListwise }] = await Promise.all([import('../audit/rank-features.js'), import('../audit/source-ranker.js'), import('../eval/recovery-candidates.js'), import('../eval/run-citation-recovery.js'), import('../learn/ranker/train-ranker.js')]);
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
        await SourceRanker.save(flags.out, SourceRanker.serialise(weights, setup.engine.scorer.info, setup.embedder.info.id, training));
        console.log(`source ranker: ${claims.length} claims, ${training.candidates} candidates`);
        console.log(`  ${flags.folds}-fold CV by article, P@1: bm25 ${p1('bm25').toFixed(3)}, engine alone ${p1('union+verify').toFixed(3)}, ranker ${p1(CV_METHOD).toFixed(3)}`);
        console.log(`  weights: ${RANK_FEATURES.map((f, j) => `${f} ${weights[j]!.toFixed(2)}`).join(', ')}`);
        console.log(`saved ${flags.out}`);
        return { weights: Object.fromEntries(RANK_FEATURES.map((f, j) => [f, weights[j]])), training, out: flags.out };
      })),
    );
}

/** The pooled index, dense, through the same ingest as `veracite index --dense`. */
async function buildPooledIndex(settings: SettingsInput, corpora: string[], quiet?: boolean): Promise<void> {
  const { Veracite } = await import('../app/veracite.js');
  // A new index has no vectors yet: open it for writing with the mode decided later, not 'hybrid'.
  const vc = await Veracite.open({ ...settings, retrieval: { ...settings.retrieval, mode: 'auto' } }, { create: true });
  try {
    for (const path of corpora) {
      const bar = createProgress(`index ${path}`, 0, 'docs', { quiet, rates: ['passages'] });
      await vc.ingest(path, { dense: true, onProgress: (p) => bar.update(p.records, { passages: p.passages }) });
      bar.stop();
    }
  } finally {
    await vc.close();
  }
}
