/**
 * The audit's calibration file from labelled citations (WiCE-shaped): one flag signal per citation ->
 * the failed-verification threshold of each positive definition (chosen on its precision-recall curve),
 * the signal as a probability of support, and the support signal's weights when P(supports) is combined
 * with the page similarity. One function for `veracite calibrate` and `veracite models calibrate` (a
 * pulled model's profile), so both write the same file by the same rules.
 */
import type { CalibrationDefinition, CalibrationFile } from '../audit/calibration.js';
import { scoringHash } from '../audit/calibration.js';
import type { QueryContext } from '../audit/query.js';
import type { ScoringConfig } from '../audit/score-document.js';
import { supportSignal, type SupportSignalFit } from '../audit/support-signal.js';
import { chooseOperatingPoint, f1, type ThresholdCriterion } from '../learn/detection-metrics.js';
import { fitProbability } from '../learn/probability.js';
import { fitSupportSignal } from '../learn/support-signal.js';
import type { ModelInfo } from '../models/types.js';
import { POSITIVE_DEFINITIONS, detectionMetrics, type PositiveDefinition, type WiceClaim } from './run-citation-detection.js';

/**
 * The two definitions have very different base rates (WiCE dev: 12% vs 67%): max-F1 on the second flags
 * nearly everything, so it gets a precision target instead.
 */
export const DEFAULT_CRITERIA: Record<PositiveDefinition, ThresholdCriterion> = {
  not_supported: { kind: 'max-f1' },
  not_or_partially_supported: { kind: 'precision', target: 0.8 },
};

export function criterionName(c: ThresholdCriterion): string {
  return c.kind === 'max-f1' ? 'max-f1' : `${c.kind}>=${c.target}`;
}

/**
 * The support signal of each citation: P(supports) combined with the page similarity by weights fitted on
 * these citations (groups = articles), or P(supports) alone (`alone`, or when the fit fails and `onFitError`
 * accepts that: it is told why).
 */
export function combineSupport(
  detected: { support: readonly number[]; similarity: readonly number[] },
  claims: readonly WiceClaim[],
  source: string,
  opts: { alone?: boolean; onFitError?: (e: Error) => void } = {},
): { signal: number[]; combined?: SupportSignalFit } {
  if (opts.alone) return { signal: [...detected.support] };
  let combined: SupportSignalFit;
  try {
    combined = fitSupportSignal(claims.map((c, i) => ({ probability: detected.support[i]!, similarity: detected.similarity[i]!, fails: c.label === 'not_supported', group: c.title || c.claim })), source);
  } catch (e) {
    if (!opts.onFitError) throw e;
    opts.onFitError(e as Error);
    return { signal: [...detected.support] };
  }
  return { signal: detected.support.map((p, i) => supportSignal(p, detected.similarity[i]!, combined)), combined };
}

export interface AuditCalibrationInput {
  /** The flag signal per citation (support units: flag when signal <= threshold). */
  signal: readonly number[];
  claims: readonly WiceClaim[];
  /** The labelled data's path (recorded). */
  data: string;
  command: string;
  criteria?: Record<PositiveDefinition, ThresholdCriterion>;
  defaultDefinition?: PositiveDefinition;
  scorer: ModelInfo;
  ranker?: ModelInfo;
  support?: ModelInfo;
  scoring: ScoringConfig;
  queryContext: QueryContext;
  supportSignal?: SupportSignalFit;
}

export function fitAuditCalibration(o: AuditCalibrationInput): CalibrationFile {
  const criteria = o.criteria ?? DEFAULT_CRITERIA;
  const labels = o.claims.map((c) => c.label);
  const definitions: Record<string, CalibrationDefinition> = {};
  for (const def of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
    const { metrics, curve } = detectionMetrics(o.signal, labels, def);
    // The curve is in support units with "flag when score <= threshold"; pick on the detection view.
    const { point, met } = chooseOperatingPoint(curve, criteria[def]);
    definitions[def] = {
      positives: [...POSITIVE_DEFINITIONS[def]],
      positivesCount: metrics.positives,
      criterion: criterionName(criteria[def]),
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
  const finite = o.signal.filter(Number.isFinite);
  const lowest = finite.length ? Math.min(...finite) : 0;
  return {
    format: 'veracite-calibration',
    version: 1,
    command: o.command,
    data: { path: o.data, n: o.claims.length, labelCounts },
    scorer: o.scorer,
    ...(o.ranker ? { ranker: o.ranker } : {}),
    ...(o.support ? { support: o.support } : {}),
    scoring: o.scoring,
    queryContext: o.queryContext,
    configHash: scoringHash(o.scorer, o.scoring, o.queryContext, o.ranker, o.support),
    defaultDefinition: o.defaultDefinition ?? 'not_supported',
    definitions,
    // The signal read as a probability of support, so every view shows one scale.
    probability: fitProbability(o.signal.map((s, i) => ({ signal: Number.isFinite(s) ? s : lowest, supported: labels[i] === 'supported' })), o.data),
    ...(o.supportSignal ? { supportSignal: o.supportSignal } : {}),
    createdAt: new Date().toISOString(),
  };
}
