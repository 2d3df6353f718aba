/**
 * `veracite calibrate`: choose the failed-verification threshold of the audit on a labelled dev set (WiCE
 * claim_dev: not_supported vs supported, and not/partially vs supported), sweeping precision and recall,
 * and save threshold + curve under models/calibration/.
 * `veracite eval citation-detection`: the citation-audit detection evaluation (WiCE); `eval
 * citation-recovery` is registered from command-ranker.ts.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { SettingsInput } from '../app/settings.js';
import { probabilityOf, DEFAULT_CALIBRATION } from '../audit/calibration.js';
import { SettingsError } from '../util/settings-error.js';
import { parseCriterion, type ThresholdCriterion } from '../learn/detection-metrics.js';
import { QUERY_CONTEXTS, type QueryContext } from '../audit/query.js';
import { DEFAULT_SCORING, type Granularity } from '../audit/score-document.js';
import type { DetectionVariant } from '../eval/run-citation-detection.js';
import { POSITIVE_DEFINITIONS, type PositiveDefinition } from '../eval/positive-definitions.js';
import { configHash } from '../provenance/config-hash.js';
import { VERACITE_VERSION } from '../provenance/version.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { addOptions, oneOf, positiveInt, settingsFrom, type OptionPick } from './options.js';
import { createProgress } from './progress.js';
import { commandLine, saveJson, withJsonOutput } from './command-line.js';
import { registerCitationRecovery } from './command-ranker.js';

/** The engine, its NLI model and scoring settings, and the ranker the ranker signal uses. */
const CALIBRATE_OPTIONS: OptionPick = { models: ['scorer', 'nli', 'device', 'cache'], scoring: true, audit: ['ranker'] };
/** Calibration scores the labelled claims' own pages: no index. */
const CALIBRATE_BASE: SettingsInput = { index: { dir: null } };

export const SIGNALS = ['engine', 'ranker', 'support'] as const;
type Signal = (typeof SIGNALS)[number];

function criterionOption(value: string): ThresholdCriterion {
  try {
    return parseCriterion(value);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}

interface CalibrateFlags extends Record<string, unknown> {
  data: string;
  out: string;
  criterion: ThresholdCriterion;
  partialCriterion: ThresholdCriterion;
  defaultDefinition: PositiveDefinition;
  signal: Signal;
  /** With --signal support: threshold P(supports) alone, without the page similarity. */
  supportAlone?: boolean;
  limit?: number;
  json?: boolean;
  quiet?: boolean;
}

export function registerCalibrateCommand(program: Command): void {
  addOptions(
    program
      .command('calibrate')
      .description('choose the failed-verification threshold of one flag signal on a labelled dev set (WiCE claim_dev), and that signal as a probability of support; save both with the precision-recall curve')
      .requiredOption('--data <file>', 'WiCE claim_dev.jsonl (claim, meta.claim_context, evidence sentences, label)')
      .option('--out <file>', 'calibration JSON', DEFAULT_CALIBRATION)
      // The two definitions have very different base rates (WiCE dev: 12% vs 67%): max-F1 on the second
      // flags nearly everything, so it gets a precision target instead.
      .option('--criterion <c>', 'threshold for not_supported: max-f1 | precision:<p> (highest recall at precision >= p) | recall:<r>', criterionOption, { kind: 'max-f1' } as ThresholdCriterion)
      .option('--partial-criterion <c>', 'threshold for not_or_partially_supported (same forms)', criterionOption, { kind: 'precision', target: 0.8 } as ThresholdCriterion)
      .option('--default-definition <d>', `definition the audit flags with: ${Object.keys(POSITIVE_DEFINITIONS).join('|')}`, oneOf('--default-definition', Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]), 'not_supported')
      .option('--signal <s>', "the score thresholded: engine (the verification engine's score), ranker (the source ranker's score of the cited page, --ranker), support (the NLI model's probability of support)", oneOf('--signal', SIGNALS), 'engine')
      .option('--support-alone', 'with --signal support: threshold P(supports) alone (default: P(supports) and the page\'s similarity to the claim, combined by weights fitted here; out-of-fold figures by article are printed and saved)')
      .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
      .option('--json', 'print the calibration JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    CALIBRATE_OPTIONS,
  ).action((flags: CalibrateFlags, cmd: Command) => withJsonOutput(flags.json, async () => {
    const [{ auditConfigOf }, { rankerWeights }, { Veracite }, { supportModel }, { supportDetection }, { combineSupport, fitAuditCalibration }, { rankerSupport, readWiceData, scoreWiceClaims }] = await Promise.all([import('../app/audit.js'), import('../app/ranker.js'), import('../app/veracite.js'), import('../audit/support.js'), import('../eval/support-detection.js'), import('../eval/audit-calibration.js'), import('../eval/run-citation-detection.js')]);
    // A ranker named on the command line with the default signal would calibrate the engine's score under
    // a ranker's name (an earlier wice-dev-ranker.json recorded such a command).
    if (cmd.getOptionValueSource('ranker') === 'cli' && cmd.getOptionValueSource('signal') !== 'cli' && cmd.getOptionValue('ranker') !== 'off') {
      throw new SettingsError('audit.ranker', "only matters with --signal ranker (the default signal is the engine's score); add --signal ranker to calibrate the source ranker's score");
    }
    const claims = (await readWiceData(flags.data)).claims.slice(0, flags.limit);
    const vc = await Veracite.open(settingsFrom(flags, CALIBRATE_OPTIONS, CALIBRATE_BASE));
    try {
      const loaded = await vc.models.engine();
      const cfg = auditConfigOf(vc.settings, vc.mode, false, vc.models.profile?.file.scoring);
      const bar = createProgress('calibrate', claims.length, 'claims', { quiet: flags.quiet });
      const engine = await scoreWiceClaims(loaded.scorer, claims, cfg, (d) => bar.update(d));
      bar.stop();
      const ranked = flags.signal === 'ranker' ? await rankerWeights(vc.settings.audit.ranker, loaded) : undefined;
      if (flags.signal === 'ranker' && !ranked) throw new SettingsError('audit.ranker', '--signal ranker needs a source ranker (not "off")');
      const judged = flags.signal === 'support' ? supportModel(loaded.scorer.info, await vc.models.engineEntailment()) : undefined;
      if (judged && 'reason' in judged) throw new Error(judged.reason);
      const nli = judged && !('reason' in judged) ? judged : undefined;
      const detected = nli ? await supportDetection(loaded.scorer, nli, claims, { scoring: cfg.scoring }) : undefined;
      // The support signal: P(supports) and the page similarity, combined by weights fitted on these claims.
      const { signal: supportSignals, combined } = detected ? combineSupport(detected, claims, flags.data, { alone: !!flags.supportAlone }) : { signal: undefined, combined: undefined };
      const support = ranked ? await rankerSupport(claims, engine, ranked.ranker, ranked.embedder, cfg.scoring.maxWords) : supportSignals ?? engine;
      const file = fitAuditCalibration({
        signal: support,
        claims,
        data: flags.data,
        command: commandLine(cmd),
        criteria: { not_supported: flags.criterion, not_or_partially_supported: flags.partialCriterion },
        defaultDefinition: flags.defaultDefinition,
        scorer: loaded.scorer.info,
        ...(ranked ? { ranker: ranked.ranker.info } : {}),
        ...(nli ? { support: nli.info } : {}),
        scoring: cfg.scoring,
        queryContext: cfg.queryContext,
        ...(combined ? { supportSignal: combined } : {}),
      });
      const definitions = file.definitions;
      // Pretty-printed: the file is committed and read by people (its curve, its thresholds).
      await writeFileAtomic(flags.out, JSON.stringify(file, null, 2) + '\n');
      for (const [name, d] of Object.entries(definitions)) {
        console.log(`${name}: threshold ${d.threshold.toFixed(4)} (${d.criterion}${d.criterionMet ? '' : ', not met: max-f1 used'}) -> precision ${d.atThreshold.precision.toFixed(3)}, recall ${d.atThreshold.recall.toFixed(3)}, flagged ${d.atThreshold.flagged}/${claims.length}; ROC AUC ${d.rocAuc.toFixed(3)}, P@15%R ${d.precisionAt15Recall.toFixed(3)}`);
      }
      if (combined) {
        const o = combined.outOfFold;
        console.log(`support signal: ${combined.bias.toFixed(3)} + ${combined.support.toFixed(3)} x logit(P(supports)) + ${combined.similarity.toFixed(3)} x page similarity; out of fold (${o.folds} folds by article, seeds ${o.seeds.join(',')}): not_supported ROC AUC ${o.rocAuc.toFixed(3)}, P@15%R ${o.precisionAt15Recall.toFixed(3)}, AP ${o.averagePrecision.toFixed(3)} (P(supports) alone: ${o.supportAlone.rocAuc.toFixed(3)}, ${o.supportAlone.precisionAt15Recall.toFixed(3)}, ${o.supportAlone.averagePrecision.toFixed(3)})`);
      }
      const p = file.probability!;
      console.log(`as a probability of support: P = 1 / (1 + e^-(${p.a.toFixed(4)} x signal + ${p.b.toFixed(4)})), ECE ${p.ece.toFixed(3)} on ${p.fittedOn.n} citations; threshold ${definitions[flags.defaultDefinition]!.threshold.toFixed(4)} = P ${probabilityOf(p, definitions[flags.defaultDefinition]!.threshold).toFixed(3)}`);
      console.log(`saved ${flags.out}`);
      return file;
    } finally {
      await vc.close();
    }
  }));
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

/** The variants replace the scoring group; the ranker's signal is scored too unless --ranker off. */
const DETECTION_OPTIONS: OptionPick = { models: ['scorer', 'device', 'cache'], audit: ['ranker'] };
const DETECTION_BASE: SettingsInput = { index: { dir: null }, models: { cache: 'tmp/embcache-wice' }, audit: { ranker: 'off' } };

export function registerCitationEvals(evalCmd: Command): void {
  addOptions(
    evalCmd
      .command('citation-detection')
      .description("WiCE dev: detect unsupported citations from the cited page (PR curve, P@15%R, ROC AUC) for two positive definitions, beside BM25/TF-IDF baselines; --ranker default also scores the source ranker's signal")
      .requiredOption('--data <file>', 'WiCE-shaped claims with the cited page\'s sentences and labels (e.g. claim_dev.jsonl)')
      .option('--name <name>', 'name of the data in the result (default: the file name)')
      .option('--variants <list>', 'comma-separated granularity/context/preselect specs', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean), DEFAULT_DETECTION_VARIANTS)
      .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
      .option('--out <file>', 'result JSON', 'eval-results/citation-detection.json')
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    DETECTION_OPTIONS,
  ).action((flags: { data: string; variants: string[]; limit?: number; out: string; json?: boolean; quiet?: boolean } & Record<string, unknown>, cmd: Command) => withJsonOutput(flags.json, async () => {
      const [{ rankerWeights }, { Veracite }, { readWiceData, runCitationDetectionEval }] = await Promise.all([import('../app/ranker.js'), import('../app/veracite.js'), import('../eval/run-citation-detection.js')]);
      const variants = flags.variants.map(parseVariant);
      const data = await readWiceData(flags.data, typeof flags.name === 'string' ? { name: flags.name } : {});
      const claims = data.claims.slice(0, flags.limit);
      const vc = await Veracite.open(settingsFrom(flags, DETECTION_OPTIONS, DETECTION_BASE));
      try {
        const loaded = await vc.models.engine();
        const ranked = await rankerWeights(vc.settings.audit.ranker, loaded);
        let bar: ReturnType<typeof createProgress> | undefined;
        let current = '';
        const result = await runCitationDetectionEval({
          data: flags.data,
          name: data.name,
          relabelled: data.relabelled,
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
        const saved = { ...result, provenance };
        await saveJson(flags.out, saved);
        const row = (name: string, m: Record<PositiveDefinition, { rocAuc: number; precisionAt15Recall: number; averagePrecision: number }>, extra = '') =>
          console.log(`  ${name.padEnd(26)} not_supported: AUC ${m.not_supported.rocAuc.toFixed(3)} P@15%R ${m.not_supported.precisionAt15Recall.toFixed(3)} AP ${m.not_supported.averagePrecision.toFixed(3)} | +partial: AUC ${m.not_or_partially_supported.rocAuc.toFixed(3)} P@15%R ${m.not_or_partially_supported.precisionAt15Recall.toFixed(3)} AP ${m.not_or_partially_supported.averagePrecision.toFixed(3)}${extra}`);
        if (data.withPrefix > 0) console.log(`note: ${data.withPrefix} records carry a claim prefix: the [claim prefix] variant compares both claim texts`);
        console.log(`${result.name} citation detection, ${result.n} claims (${JSON.stringify(result.labelCounts)}), scorer ${result.scorer.id}`);
        for (const v of result.variants) row(v.name, v.metrics, ` (${v.seconds.toFixed(0)} s)`);
        for (const b of result.baselines) row(`baseline ${b.name}`, b.metrics);
        console.log(`  URL depth: ${result.urlDepthBaseline}`);
        console.log(`best: ${result.best.name}; saved ${flags.out}`);
        return saved;
      } finally {
        await vc.close();
      }
    }));

  registerCitationRecovery(evalCmd);
}
