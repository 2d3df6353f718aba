/**
 * The verdict rule's fitted thresholds and confidence temperature (models/verdict-calibration.json, written
 * by `veracite tune-verdict`, src/learn/verdict/fit-verdict.ts). Tied to the model ids it was fitted
 * with: the Verifier applies it only when the same evidence scorer and entailment model are loaded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelInfo } from '../models/types.js';
import { packageRoot } from '../util/package-root.js';
import type { AggregateConfig, VerdictCalibrator, VerdictRule } from './aggregate.js';
import type { Reliability } from './reliability.js';

export const CALIBRATION_PATH = join(packageRoot(), 'models', 'verdict-calibration.json');

export interface RuleCalibration {
  supportThreshold: number;
  refuteThreshold: number;
  temperature: number;
  /** Relevance gate (best evidence score) below which the verdict is NOT ENOUGH INFO; absent in older files. */
  relevanceThreshold?: number;
  /** Probability calibrator fitted by likelihood on the same pairs; absent in older files. */
  calibrator?: VerdictCalibrator;
  fittedOn: {
    source: string;
    pairs: number;
    accuracy: number;
    majorityBaseline: number;
    defaultAccuracy: number;
    nll: number;
    /**
     * Accuracy over the (claim, cited abstract) pairs alone, without the shuffled ones: the figure that
     * compares with an oracle-abstract evaluation such as SciFact dev's label accuracy.
     */
    citedAccuracy?: { pairs: number; accuracy: number };
    /** Reliability of the stated confidence (the chosen label's probability) on the fitting pairs. */
    reliability?: Reliability;
    /**
     * Accuracy of the same fit on pairs it did not see (repeated k-fold over claims,
     * learn/verdict/held-out.ts): what the rule choice compares, since `accuracy` is measured on the pairs
     * the thresholds were searched on. Absent in older files.
     */
    heldOut?: HeldOutAccuracy;
  };
}

export interface HeldOutAccuracy {
  folds: number;
  repeats: number;
  seed: number;
  /** Mean over the repeats of the accuracy on every pair, each judged by thresholds fitted without its fold. */
  accuracy: number;
  /** The same over the cited-abstract pairs alone (no shuffled or retrieved negatives). */
  citedAccuracy?: number;
  /** Accuracy of each repeat (one full pass of k folds). */
  perRepeat: number[];
}

/** The aggregate settings a fitted rule gives: its thresholds, temperature, gate and calibrator. */
export function aggregateConfigOf(fitted: RuleCalibration): AggregateConfig {
  return {
    supportThreshold: fitted.supportThreshold,
    refuteThreshold: fitted.refuteThreshold,
    temperature: fitted.temperature,
    ...(fitted.relevanceThreshold !== undefined ? { relevanceThreshold: fitted.relevanceThreshold } : {}),
    ...(fitted.calibrator ? { calibrator: fitted.calibrator } : {}),
  };
}

export interface VerdictCalibration {
  /**
   * What `verify` decides with, over the documents it retrieves (each document decided alone, the most
   * relevant that takes a side deciding): fitted on relevance and the entailment readings, without claim
   * coverage.
   */
  rules: Partial<Record<VerdictRule, RuleCalibration>>;
  /**
   * The same rules fitted with claim coverage as a calibrator input (src/verify/coverage.ts), for a
   * document judged on its own: `verifyEachDocument` (SciFact's abstract-level task) and the audit's
   * probability that a cited source supports its claim. Not for `verify`: every document it retrieves is on
   * the claim's subject and names its words, and with coverage read as evidence of a side its claim-level
   * accuracy on SciFact train fell from 0.688 to 0.483 (docs/RESULTS-HISTORY.md). Absent in older files.
   */
  documentRules?: Partial<Record<VerdictRule, RuleCalibration>>;
  /** The rule `chooseRule` picked (columbia unless another leads by a point of held-out accuracy): the default when none is configured. */
  bestRule: VerdictRule;
  models: Pick<ModelInfo, 'id' | 'version'>[];
  createdAt: string;
}

/**
 * The rule one cited source is judged by (audit/support.ts: check and the audit), whatever rule verify uses: concat
 * on the joined evidence, its calibration with claim coverage when fitted. The needs-review model for one source is
 * fitted on this rule's decisions (cli/tune-domains.ts).
 */
export function oneSourceRule(c: VerdictCalibration | undefined): RuleCalibration | undefined {
  return c?.documentRules?.concat ?? c?.rules.concat;
}

/** The saved calibration when it was fitted with exactly these models; undefined otherwise. */
export function loadVerdictCalibration(models: ModelInfo[], path = CALIBRATION_PATH): VerdictCalibration | undefined {
  if (!existsSync(path)) return undefined;
  let c: VerdictCalibration;
  try {
    c = JSON.parse(readFileSync(path, 'utf8')) as VerdictCalibration;
  } catch (e) {
    throw new Error(`${path}: not a verdict calibration file (${(e as Error).message})`);
  }
  if (!c.rules || !c.bestRule) return undefined;
  const want = new Set(models.map((m) => `${m.id}@${m.version}`));
  const have = new Set(c.models.map((m) => `${m.id}@${m.version}`));
  if (want.size !== have.size || [...want].some((k) => !have.has(k))) return undefined;
  return c;
}
