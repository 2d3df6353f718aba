/**
 * Sanity gates: what a model must show on held-out labelled pairs before any profile built on it may judge.
 * Calibration fits a verdict rule to whatever readings it is given, and a fit can look good on relevance
 * alone (issue 39: a model answering "contradiction 0.965" for every pair was calibrated without a word and
 * then read every evidence sentence as contradiction). So, for any engine (an ONNX NLI model, an LLM judge:
 * anything that reads a (claim, evidence) pair as P(entailment), P(neutral), P(contradiction)):
 *
 * - accuracy: its 3-way argmax on the NLI sample must be well above chance (1/3);
 * - ranking: its entailment reading must rank entailed pairs above contradicted ones (ROC AUC), and its
 *   contradiction reading contradicted pairs above entailed ones: a label-swapped model fails both;
 * - fit: the fitted verdict calibrator must give the readings weight (a rule that decides from relevance
 *   alone is degenerate), with finite, bounded weights.
 *
 * One function, `sanityGates`, judges readings and (optionally) the fitted calibrator; `readNliSample`
 * collects the readings from any scorer. The thresholds are in GATE_THRESHOLDS (docs/MODELS.md quotes them).
 */
import { rocAuc } from '../detection-metrics.js';
import type { EntailmentPair, EntailmentProbs } from '../../models/types.js';
import type { VerdictCalibrator } from '../../verify/aggregate.js';

export type NliLabel = 'entailment' | 'neutral' | 'contradiction';
const NLI_LABELS: readonly NliLabel[] = ['entailment', 'neutral', 'contradiction'];

/** One labelled pair as the engine read it. */
export interface NliReading {
  gold: NliLabel;
  probs: EntailmentProbs;
}

export const GATE_THRESHOLDS = {
  /** 3-way accuracy on the NLI sample at least this (chance: 0.333; nli-small's card: 0.92 on SNLI test). */
  minAccuracy: 0.45,
  /** ROC AUC of P(entailment), entailed vs contradicted pairs, at least this (random: 0.5; label-swapped: < 0.5). */
  minRankingAuc: 0.65,
  /** Pairs the NLI gates need at least (fewer cannot tell a model from chance). */
  minPairs: 30,
  /** The calibrator's weight on the readings (per standard deviation of the reading) at least this. */
  minReadingWeight: 1e-3,
  /** No calibrator weight larger than this (an exploding fit: readings with no spread, separable data). */
  maxWeight: 1e3,
} as const;

export interface GateCheck {
  name: 'accuracy' | 'entailment ranking' | 'contradiction ranking' | 'fit';
  passed: boolean;
  /** The measured figure, and the threshold it is held to. */
  value: number;
  threshold: number;
  n: number;
  /** Why it failed (or what it measured), in words a user reads. */
  reason: string;
}

export interface GateReport {
  passed: boolean;
  checks: GateCheck[];
}

export class CalibrationRefusedError extends Error {
  constructor(
    readonly subject: string,
    readonly report: GateReport,
  ) {
    const failed = report.checks.filter((c) => !c.passed);
    super(
      `${subject}: refused by the sanity gates, nothing was saved: ${failed.map((c) => `${c.name} ${c.value.toFixed(3)} (needs ${c.name === 'fit' ? '' : '>= '}${c.threshold}): ${c.reason}`).join('; ')}. ` +
        'The model does not read NLI pairs as its labels say: check its config.json id2label (label order), that it is an NLI model at all, and the file you pulled; see docs/MODELS.md, "Sanity gates"',
    );
    this.name = 'CalibrationRefusedError';
  }
}

function argmax(p: EntailmentProbs): NliLabel {
  return NLI_LABELS.reduce((a, b) => (p[b] > p[a] ? b : a));
}

/** The gates on NLI readings alone (accuracy, entailment and contradiction ranking). */
export function nliGates(readings: readonly NliReading[]): GateCheck[] {
  const t = GATE_THRESHOLDS;
  const n = readings.length;
  const right = readings.filter((r) => argmax(r.probs) === r.gold).length;
  const accuracy = n ? right / n : 0;
  const counts = NLI_LABELS.map((l) => `${readings.filter((r) => argmax(r.probs) === l).length} ${l}`).join(', ');
  const checks: GateCheck[] = [
    {
      name: 'accuracy',
      passed: n >= t.minPairs && accuracy >= t.minAccuracy,
      value: accuracy,
      threshold: t.minAccuracy,
      n,
      reason: n < t.minPairs ? `only ${n} labelled NLI pairs (at least ${t.minPairs})` : accuracy < t.minAccuracy ? `3-way accuracy near chance (0.333) on ${n} held-out NLI pairs; it answered ${counts}` : `3-way accuracy on ${n} NLI pairs (answers: ${counts})`,
    },
  ];
  const ent = readings.filter((r) => r.gold === 'entailment');
  const con = readings.filter((r) => r.gold === 'contradiction');
  for (const [name, reading, positive, negative] of [
    ['entailment ranking', 'entailment', ent, con],
    ['contradiction ranking', 'contradiction', con, ent],
  ] as const) {
    const scores = [...positive.map((r) => r.probs[reading]), ...negative.map((r) => r.probs[reading])];
    const labels = [...positive.map(() => true), ...negative.map(() => false)];
    const auc = positive.length && negative.length ? rocAuc(scores, labels) : 0.5;
    const passed = positive.length >= 10 && negative.length >= 10 && auc >= t.minRankingAuc;
    checks.push({
      name,
      passed,
      value: auc,
      threshold: t.minRankingAuc,
      n: positive.length + negative.length,
      reason: passed
        ? `ROC AUC of P(${reading}), ${positive.length} ${positive === ent ? 'entailed' : 'contradicted'} vs ${negative.length} ${negative === ent ? 'entailed' : 'contradicted'} pairs`
        : auc < 0.5 - 0.1
          ? `P(${reading}) ranks ${positive === ent ? 'contradicted pairs above entailed' : 'entailed pairs above contradicted'} ones: the labels look swapped`
          : `P(${reading}) does not rank ${positive === ent ? 'entailed above contradicted' : 'contradicted above entailed'} pairs (0.5 is chance)`,
    });
  }
  return checks;
}

/**
 * The gate on a fitted verdict calibrator: finite, bounded weights, and weight on the readings. Features
 * are [ln P(entailment), ln P(contradiction), ln P(neutral), relevance, ...]; the readings' weight is how
 * far the entailment reading lifts SUPPORTS above both other labels' logits, or the contradiction reading
 * REFUTES (the larger). `spread` (optional): each feature's standard
 * deviation over the fitting pairs, so that the weight is per standard deviation of the reading.
 */
export function fitGate(c: VerdictCalibrator, spread?: readonly number[]): GateCheck {
  const t = GATE_THRESHOLDS;
  const all = [...c.weights.flat(), ...c.bias];
  const largest = Math.max(...all.map((w) => (Number.isFinite(w) ? Math.abs(w) : Infinity)));
  if (!(largest <= t.maxWeight)) {
    return { name: 'fit', passed: false, value: largest, threshold: t.maxWeight, n: 0, reason: `a calibrator weight is ${Number.isFinite(largest) ? largest.toExponential(2) : 'not finite'} (at most ${t.maxWeight}): the fit is degenerate` };
  }
  // How far a reading lifts its own label above both others (LABELS order: SUPPORTS, REFUTES, NOT ENOUGH
  // INFO): the entailment reading SUPPORTS (column 0), the contradiction reading REFUTES (column 1).
  const lift = (j: number, label: number) => {
    const ws = c.weights.map((w) => w[j] ?? 0);
    return (ws[label]! - Math.max(...ws.filter((_, k) => k !== label))) * (spread?.[j] ?? 1);
  };
  const reading = Math.max(lift(0, 0), lift(1, 1));
  const passed = reading >= t.minReadingWeight;
  return {
    name: 'fit',
    passed,
    value: reading,
    threshold: t.minReadingWeight,
    n: 0,
    reason: passed ? 'the calibrator reads the entailment and contradiction readings' : 'the fitted calibrator gives the entailment and contradiction readings no weight: verdicts would come from relevance alone',
  };
}

/** Every gate on one engine's readings (and, once fitted, its calibrator). */
export function sanityGates(readings: readonly NliReading[], fitted?: { calibrator: VerdictCalibrator; spread?: readonly number[] }): GateReport {
  const checks = nliGates(readings);
  if (fitted) checks.push(fitGate(fitted.calibrator, fitted.spread));
  return { passed: checks.every((c) => c.passed), checks };
}

/** Reads labelled NLI pairs with any engine: (premise = evidence, hypothesis = claim) -> its 3-way reading. */
export async function readNliSample(
  predict: (pairs: EntailmentPair[]) => Promise<EntailmentProbs[]>,
  pairs: readonly { premise: string; hypothesis: string; label: string }[],
  opts: { batch?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<NliReading[]> {
  const labelled = pairs.filter((p): p is { premise: string; hypothesis: string; label: NliLabel } => (NLI_LABELS as readonly string[]).includes(p.label));
  const out: NliReading[] = [];
  const batch = opts.batch ?? 32;
  for (let i = 0; i < labelled.length; i += batch) {
    const chunk = labelled.slice(i, i + batch);
    const probs = await predict(chunk.map((p) => ({ premise: p.premise, hypothesis: p.hypothesis })));
    chunk.forEach((p, k) => out.push({ gold: p.label, probs: probs[k]! }));
    opts.onProgress?.(out.length, labelled.length);
  }
  return out;
}

/** A one-line summary of a report, for logs and profiles. */
export function describeGates(report: GateReport): string {
  return report.checks.map((c) => `${c.name} ${c.value.toFixed(3)} ${c.passed ? 'ok' : 'FAILED'}`).join(', ');
}
