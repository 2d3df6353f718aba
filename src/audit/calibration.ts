/**
 * The failed-verification threshold and the curve it was read from, as written by `veracite calibrate`
 * (models/calibration/*.json, committed). A threshold only means something for the scorer and scoring
 * settings it was measured with, so the file records both and the audit refuses to flag with a
 * mismatching file (it reports scores without flags and says why).
 */
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import type { ModelInfo } from '../models/types.js';
import type { Reliability } from '../verify/reliability.js';
import { packageRoot } from '../util/package-root.js';
import { reportPath } from '../util/report-path.js';
import { configHash } from '../provenance/config-hash.js';
import type { QueryContext } from './query.js';
import type { ScoringConfig } from './score-document.js';
import type { SupportSignalFit, SupportSignalWeights } from './support-signal.js';

export const CALIBRATION_FORMAT = 'veracite-calibration';
export const DEFAULT_CALIBRATION = 'models/calibration/wice-dev.json';

export interface CalibrationPoint {
  /** Flag a citation when its support score is <= threshold. */
  threshold: number;
  precision: number;
  recall: number;
  flagged: number;
}

export interface CalibrationDefinition {
  /** Labels counted as "fails verification". */
  positives: string[];
  positivesCount: number;
  criterion: string;
  /** False when the criterion could not be met (e.g. no threshold reaches the target precision). */
  criterionMet: boolean;
  threshold: number;
  atThreshold: { precision: number; recall: number; f1: number; flagged: number };
  rocAuc: number;
  averagePrecision: number;
  precisionAt15Recall: number;
  curve: CalibrationPoint[];
}

/**
 * The flag signal read as a probability: P(the cited source supports the claim | signal) =
 * 1 / (1 + e^-(a·signal + b)), fitted on the same labelled citations as the thresholds (learn/probability.ts).
 * Monotone in the signal, so the threshold and the order read the same on this scale.
 */
export interface ProbabilityCalibration {
  a: number;
  b: number;
  /** The event the probability is of: the citation's label is "supported". */
  event: 'supported';
  fittedOn: { source: string; n: number; positives: number };
  /** Expected calibration error on the fitting data. */
  ece: number;
  reliability?: Reliability;
}

/** The probability a calibrated signal value stands for. */
export function probabilityOf(p: Pick<ProbabilityCalibration, 'a' | 'b'>, signal: number): number {
  return 1 / (1 + Math.exp(-(p.a * signal + p.b)));
}

/** One line a person reads beside such a probability. */
export const PROBABILITY_MEANING = 'probability that the cited source supports the claim (calibrated on labelled citations)';

export interface CalibrationFile {
  format: typeof CALIBRATION_FORMAT;
  version: 1;
  /** How to regenerate this file. */
  command: string;
  data: { path: string; n: number; labelCounts: Record<string, number> };
  scorer: ModelInfo;
  /** Present when the support score is the source ranker's score of the cited page (not the engine's). */
  ranker?: ModelInfo;
  /** Present when the thresholded score is the probability of support (audit/support.ts): the NLI head it needs. */
  support?: ModelInfo;
  scoring: ScoringConfig;
  queryContext: QueryContext;
  /** configHash({scorer id, scoring, queryContext[, ranker id]}): what an audit must match to use the thresholds. */
  configHash: string;
  /** Definition the audit flags with unless told otherwise. */
  defaultDefinition: string;
  definitions: Record<string, CalibrationDefinition>;
  /** The signal as a probability of support (absent in files written before it existed). */
  probability?: ProbabilityCalibration;
  /**
   * With `support`: the thresholded signal combines P(supports) with the page's similarity to the claim
   * (support-signal.ts), by these weights. Absent: the signal is P(supports) itself.
   */
  supportSignal?: SupportSignalFit;
  createdAt: string;
}

/** The settings a threshold depends on (and the ranker or the NLI head, when their score is the flag signal). */
export function scoringHash(scorer: ModelInfo, scoring: ScoringConfig, queryContext: QueryContext, ranker?: ModelInfo, support?: ModelInfo): string {
  return configHash({ scorer: scorer.id, scoring, queryContext, ...(ranker ? { ranker: ranker.id } : {}), ...(support ? { support: support.id } : {}) });
}

export function defaultCalibrationPath(): string {
  return join(packageRoot(), DEFAULT_CALIBRATION);
}

export async function loadCalibration(path: string): Promise<CalibrationFile & { path: string; sha256: string }> {
  const text = await readFile(path, 'utf8');
  const cal = JSON.parse(text) as CalibrationFile;
  if (cal.format !== CALIBRATION_FORMAT) throw new Error(`${path}: not a veracite calibration file (format ${JSON.stringify(cal.format)})`);
  if (!cal.definitions?.[cal.defaultDefinition]) throw new Error(`${path}: default definition "${cal.defaultDefinition}" missing`);
  return { ...cal, path, sha256: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

/**
 * The calibration in `dir` (default models/calibration/) made for exactly these scoring settings, so
 * `--scorer lexical` picks the lexical thresholds and the default scorer the trained ones. Falls back to the
 * default file (whose mismatch the audit then reports) when none matches.
 */
export async function findCalibration(
  hash: string,
  dir = join(packageRoot(), dirname(DEFAULT_CALIBRATION)),
  /** Fall back to the default file when nothing matches (false: undefined instead). */
  fallBack = true,
): Promise<(CalibrationFile & { path: string; sha256: string }) | undefined> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return undefined;
  }
  let fallback: (CalibrationFile & { path: string; sha256: string }) | undefined;
  for (const name of names) {
    let cal: CalibrationFile & { path: string; sha256: string };
    try {
      cal = await loadCalibration(join(dir, name));
    } catch {
      continue; // not a calibration file (e.g. a curve export)
    }
    if (cal.configHash === hash) return cal;
    if (fallBack && join(dir, name) === defaultCalibrationPath()) fallback = cal;
  }
  return fallback;
}

export interface FlagRule {
  threshold: number;
  /** Where the threshold came from, for the report. */
  source: string;
  definition?: string;
  /** Which score the threshold applies to: the engine's (default), the source ranker's, or the probability of support. */
  signal?: 'engine' | 'ranker' | 'support';
  /** The signal as a probability of support, and the threshold on that scale (from the calibration file). */
  probability?: Pick<ProbabilityCalibration, 'a' | 'b'> & { threshold: number };
  /** With signal 'support': the weights that combine P(supports) with the page similarity (absent: P(supports) alone). */
  supportSignal?: SupportSignalWeights;
}

/**
 * The threshold an audit flags with: an explicit one wins; otherwise the calibration's, when it was
 * measured with the same scorer and scoring settings. Returns a reason instead when there is none.
 */
export function flagRule(
  /** The calibration's path is shown as reportPath gives it (relative to the package, or its name): the rule's source and reasons go into reports. */
  opts: { threshold?: number; calibration?: CalibrationFile & { path?: string; sha256?: string }; definition?: string },
  current: { scorer: ModelInfo; scoring: ScoringConfig; queryContext: QueryContext; ranker?: ModelInfo; support?: ModelInfo },
): FlagRule | { reason: string } {
  if (opts.threshold !== undefined) return { threshold: opts.threshold, source: 'command line (--threshold)' };
  const cal = opts.calibration;
  if (!cal) return { reason: 'no calibration file: scores are reported without failed-verification flags (run "veracite calibrate")' };
  const def = opts.definition ?? cal.defaultDefinition;
  const d = cal.definitions[def];
  if (!d) return { reason: `calibration ${cal.path ? reportPath(cal.path) : ''} has no definition "${def}" (has ${Object.keys(cal.definitions).join(', ')})` };
  // A ranker calibration needs that ranker loaded; an engine calibration applies with or without one.
  const ranker = cal.ranker ? current.ranker : undefined;
  if (cal.ranker && !current.ranker) return { reason: `calibration ${cal.path ? reportPath(cal.path) : ''} thresholds the source ranker's score, and no ranker is loaded: no flags` };
  if (cal.support && !current.support) return { reason: `calibration ${cal.path ? reportPath(cal.path) : ''} thresholds the probability of support, and no NLI head with a fitted verdict calibration is loaded: no flags` };
  const want = scoringHash(current.scorer, current.scoring, current.queryContext, ranker, cal.support ? current.support : undefined);
  if (cal.configHash !== want) {
    return { reason: `calibration ${cal.path ? reportPath(cal.path) : ''} was made for scorer ${cal.scorer.id} with other settings (hash ${cal.configHash}, audit uses ${want}): no flags; recalibrate or pass --threshold` };
  }
  const file = `${cal.path ? reportPath(cal.path) : 'calibration'}${cal.sha256 ? ` (sha256 ${cal.sha256})` : ''}`;
  const rule: FlagRule = { threshold: d.threshold, source: `${file}: ${d.criterion} on ${reportPath(cal.data.path)}`, definition: def, signal: cal.ranker ? 'ranker' : cal.support ? 'support' : 'engine' };
  if (cal.probability) rule.probability = { a: cal.probability.a, b: cal.probability.b, threshold: probabilityOf(cal.probability, d.threshold) };
  if (cal.support && cal.supportSignal) rule.supportSignal = { bias: cal.supportSignal.bias, support: cal.supportSignal.support, similarity: cal.supportSignal.similarity };
  return rule;
}
