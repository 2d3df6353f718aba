/**
 * `veracite tune-verdict`: fit the verdict rule (relevance gate, thresholds, probability calibrator) on
 * SciFact TRAIN claims and save models/verdict-calibration.json. The shipped heads were trained on those
 * claims, so each half of them is judged by heads trained without it (2-fold cross-fitting,
 * learn/verdict/crossfit.ts): fitting on the NLI head's in-sample predictions gave dev accuracy 55.3% and
 * ECE 0.29; cross-fitting the NLI head, 61.2% and 0.16; cross-fitting the evidence head too (its score is
 * the relevance the gate reads), dev ECE 0.180 -> 0.069 on the same heads' successors (docs/RESULTS-HISTORY.md).
 * Same data and seed give the same file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Veracite } from '../app/veracite.js';
import { CALIBRATION_PATH, RULE_MARGIN, saveVerdictCalibration } from '../learn/verdict/fit-verdict.js';
import type { EntailmentModel, PairScorer } from '../models/types.js';
import { REVIEW_PATH } from '../verify/review.js';
import { addOptions, nonNegativeInt, positiveInt, settingsFrom, type OptionPick } from './options.js';
import { MissingInputError, UsageError } from '../util/exit-codes.js';

/** The shipped evidence scorer over the index of the SciFact corpus (abstracts read from it). */
// --profile only with --domains: the needs-review model fitted on that engine's own decisions goes into its profile.
const TUNE_OPTIONS: OptionPick = { index: ['index'], models: ['scorer', 'nli', 'device', 'profile'] };

export function registerTuneVerdictCommand(program: Command): void {
  addOptions(
    program
      .command('tune-verdict')
      .description('fit the verdict rule (relevance gate, thresholds, probability calibrator) on SciFact train claims with cross-fitted NLI and evidence heads')
      .option('--data <dir>', 'shared data folder (scifact/claims_train.jsonl and what `veracite train` reads)', '../shared/data')
      .option('--seed <n>', 'seed of the training run being calibrated (splits, the cross-fit halves)', positiveInt('--seed'), 13)
      .option('--cache <dir>', 'training embedding cache (as `veracite train`)', 'tmp/train-cache')
      .option('--out <file>', 'where to save', CALIBRATION_PATH)
      .option('--items-out <file>', 'also save the cross-fitted items (per-sentence probabilities, evidence scores, gold) as JSON')
      .option('--retrieved <n>', 'per claim, this many abstracts BM25 ranks in its top 3 but the claim does not cite, as NOT ENOUGH INFO', nonNegativeInt('--retrieved'), 0)
      .option('--domains', 'instead: fit the verdict layer leave-one-domain-out over SciFact train, SNLI, RTE and WiCE dev and report per domain (learn/verdict/lodo.ts); also fits the needs-review model')
      .option('--sick', 'with --domains: add SICK (opt-in: CC BY-NC-SA) to the domains')
      .option('--health', 'with --domains: also check the shipped layer on COVID-Fact and HealthVer dev (validation only, never fitted on: no licence stated)')
      .option('--domains-out <file>', 'with --domains: the per-domain figures', 'eval-results/verdict-domains.json')
      .option('--review-out <file>', 'with --domains: where to save the needs-review model (with --profile: into that profile, unless another file is named)', REVIEW_PATH)
      .option('--quiet', 'no progress output'),
    TUNE_OPTIONS,
  ).action(async (flags: { data: string; seed: number; cache: string; out: string; itemsOut?: string; retrieved: number; quiet?: boolean; domains?: boolean; sick?: boolean; health?: boolean; domainsOut: string; reviewOut: string } & Record<string, unknown>) => {
    if (flags.profile !== undefined && !flags.domains) throw new UsageError('--profile: only with --domains (the needs-review model fitted on that engine\'s decisions, saved into its profile); the verdict calibration of a profile is made by veracite models calibrate');
    if (flags.domains) {
      const [{ reportDomains }, { runDomainReport, DOMAIN_LIMITS, DOMAIN_CAP }] = await Promise.all([import('../learn/verdict/domains.js'), import('./tune-domains.js')]);
      const { fit, domains } = reportDomains(flags);
      // The engine's readings are cached per domain in tmp/domains (the same models and sample: read once).
      await runDomainReport({ settings: settingsFrom(flags, TUNE_OPTIONS), data: flags.data, domains, fit, limits: DOMAIN_LIMITS, cacheDir: 'tmp/domains', seed: flags.seed, cap: DOMAIN_CAP, out: flags.domainsOut, reviewOut: flags.reviewOut, log: flags.quiet ? () => {} : (line: string) => console.error(line) });
      return;
    }
    // The pipeline and the fitting load when the command runs, not at start-up (issue 31).
    const [{ Veracite }, { fitVerdictCrossFitted }, { createUseEmbedder }, { reliabilityTable }] = await Promise.all([
      import('../app/veracite.js'),
      import('../learn/verdict/crossfit.js'),
      import('../models/use/index.js'),
      import('../verify/reliability.js'),
    ]);
    if (!existsSync(join(flags.data, 'scifact', 'claims_train.jsonl'))) throw new MissingInputError(`--data ${flags.data}: scifact/claims_train.jsonl not found (expected the shared data folder)`);
    const log = flags.quiet ? () => {} : (line: string) => console.error(line);
    // Per-sentence entailment probabilities are what is fitted on: the columbia rule, BM25 candidates.
    const settings = { ...settingsFrom(flags, TUNE_OPTIONS), retrieval: { mode: 'bm25' as const }, verify: { rule: 'columbia' as const } };
    const vc = await Veracite.open(settings);
    const folds: Veracite[] = [];
    // The training vectors come from one-thread USE, as `veracite train` computes them (its cache keys on them).
    const trainingEmbedder = await createUseEmbedder({ threads: 1 });
    try {
      const [embedder, scorer, entailment] = await Promise.all([vc.models.use(), vc.models.scorer(), vc.models.entailment()]);
      const cal = await fitVerdictCrossFitted({
        data: flags.data,
        seed: flags.seed,
        models: { embedder, scorer, entailment },
        trainingEmbedder,
        cacheDir: flags.cache,
        log,
        ...(flags.itemsOut ? { itemsOut: flags.itemsOut } : {}),
        retrieved: flags.retrieved,
        verifierWith: async (fold: { entailment: EntailmentModel; scorer: PairScorer }) => {
          const app = await Veracite.open(settings, { models: fold });
          folds.push(app);
          return app.verifier();
        },
      });
      await saveVerdictCalibration(cal, flags.out);
      const fits = [...Object.entries(cal.rules).map(([rule, r]) => [`${rule} (verify)`, r] as const), ...Object.entries(cal.documentRules ?? {}).map(([rule, r]) => [`${rule} (one document, with claim coverage)`, r] as const)];
      for (const [rule, r] of fits) {
        console.log(`${rule}: relevance >= ${r.relevanceThreshold}, support >= ${r.supportThreshold}, refute >= ${r.refuteThreshold}: cross-fitted train accuracy ${(100 * r.fittedOn.accuracy).toFixed(1)}% (default ${(100 * r.fittedOn.defaultAccuracy).toFixed(1)}%, majority ${(100 * r.fittedOn.majorityBaseline).toFixed(1)}%) over ${r.fittedOn.pairs} pairs${r.fittedOn.citedAccuracy ? ` (${(100 * r.fittedOn.citedAccuracy.accuracy).toFixed(1)}% over the ${r.fittedOn.citedAccuracy.pairs} cited-abstract pairs alone)` : ''}, NLL ${r.fittedOn.nll.toFixed(3)}`);
        const h = r.fittedOn.heldOut;
        if (h) console.log(`  held out (${h.folds} folds over claims x ${h.repeats} repeats): ${(100 * h.accuracy).toFixed(1)}%${h.citedAccuracy !== undefined ? ` (cited ${(100 * h.citedAccuracy).toFixed(1)}%)` : ''}; per repeat ${h.perRepeat.map((a) => (100 * a).toFixed(1)).join(', ')}`);
        if (r.fittedOn.reliability) console.log(reliabilityTable(r.fittedOn.reliability));
      }
      console.log(`default rule: ${cal.bestRule} (columbia unless another rule is ahead by ${100 * RULE_MARGIN} point of held-out accuracy); saved ${flags.out}`);
    } finally {
      for (const f of folds) await f.close();
      await trainingEmbedder.dispose?.();
      await vc.close();
    }
  });
}
