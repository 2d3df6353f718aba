/**
 * Fits the verdict rule's thresholds and the confidence temperature on labelled (claim, document) pairs
 * (SciFact train, oracle abstracts), never on the evaluation split. The per-pair entailment
 * probabilities are computed once; the grid search then replays the ColumbiaNLP rule on them.
 *
 * Output (models/verdict-calibration.json) is tied to the model ids it was fitted with: the Verifier
 * applies it only when the same evidence scorer and entailment model are loaded.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EntailmentProbs, ModelInfo } from '../../models/types.js';
import { aggregateColumbia, calibrated, calibratorFeatures, DEFAULT_AGGREGATE, labelOf, type AggregateConfig, type CalibratorInput, type VerdictCalibrator, type VerdictRule } from '../../verify/aggregate.js';
import { reliability } from '../../verify/reliability.js';
import { LABELS, type Label, type LabelProbs } from '../../verify/types.js';
import { CALIBRATION_PATH, type RuleCalibration, type VerdictCalibration } from '../../verify/verdict-calibration.js';
import { DEFAULT_HELD_OUT, heldOutAccuracy, type HeldOutOptions } from './held-out.js';
import { isRight, knownOf, type LabelledPairs } from './labelled-pairs.js';

export { CALIBRATION_PATH };

export type { LabelledPairs };

function accuracy(items: LabelledPairs[], cfg: AggregateConfig): number {
  let ok = 0;
  for (const it of items) if (isRight(it, aggregateColumbia(it.evidence, cfg, it.relevance ?? 1, knownOf(it)).label)) ok++;
  return items.length ? ok / items.length : 0;
}

/** Raw label probabilities of one item (ColumbiaNLP maxima; for concat the single prediction). */
function rawOf(it: LabelledPairs): LabelProbs {
  if (!it.evidence.length) return { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 1 };
  const support = Math.max(...it.evidence.map((p) => p.entailment));
  const refute = Math.max(...it.evidence.map((p) => p.contradiction));
  return { SUPPORTS: support, REFUTES: refute, 'NOT ENOUGH INFO': Math.max(1e-6, 1 - Math.max(support, refute)) };
}

/** Below this standard deviation a feature is treated as constant: its weight stays 0 (no 1e13 weights). */
const CONSTANT_FEATURE_STD = 1e-6;

/**
 * Euclidean projection of `v` onto {v[0] >= v[i] for every i}: the first is pooled with the others above
 * it, largest first, while they exceed the pooled mean.
 */
export function firstLargest(v: readonly number[]): number[] {
  const rest = v.slice(1).map((x, i) => ({ x, i: i + 1 })).sort((a, b) => b.x - a.x);
  let sum = v[0]!;
  let n = 1;
  for (const r of rest) {
    if (r.x <= sum / n) break;
    sum += r.x;
    n++;
  }
  const t = sum / n;
  return v.map((x, i) => (i === 0 ? t : Math.min(x, t)));
}

/** Euclidean projection of `v` onto non-increasing sequences (pool adjacent violators). */
export function nonIncreasing(v: readonly number[]): number[] {
  const blocks: { sum: number; n: number }[] = [];
  for (const x of v) {
    blocks.push({ sum: x, n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n < blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n) {
      const last = blocks.pop()!;
      blocks[blocks.length - 1]!.sum += last.sum;
      blocks[blocks.length - 1]!.n += last.n;
    }
  }
  return blocks.flatMap((b) => new Array<number>(b.n).fill(b.sum / b.n));
}

/**
 * The sign constraints, on the weight columns of the two readings (calibratorFeatures: ln pS, ln pR, ...;
 * LABELS order SUPPORTS, REFUTES, NOT ENOUGH INFO). For softmax p_k, dp_k/dx_j = p_k (w_kj - sum_l p_l w_lj):
 * a label whose weight is its column's largest only gains as the feature grows, the smallest only loses.
 * - ln pS: SUPPORTS largest (more entailment never lowers P(SUPPORTS));
 * - ln pR: REFUTES >= NOT ENOUGH INFO >= SUPPORTS (more contradiction never raises P(SUPPORTS), never lowers
 *   P(REFUTES)).
 * Applied in place after every step (projected gradient descent).
 */
function constrainSigns(w: number[][]): void {
  const support = firstLargest([w[0]![0]!, w[1]![0]!, w[2]![0]!]);
  [0, 1, 2].forEach((k, i) => (w[k]![0] = support[i]!));
  const refute = nonIncreasing([w[1]![1]!, w[2]![1]!, w[0]![1]!]);
  [1, 2, 0].forEach((k, i) => (w[k]![1] = refute[i]!));
}

/**
 * Multinomial logistic regression of the gold label on calibratorFeatures, full-batch projected gradient
 * descent from zero with a little L2: deterministic, 15 parameters (3 more per further input), so it cannot
 * overfit ~1,000 pairs much. Regularised and sign-constrained (issue 39): a feature with no spread keeps
 * weight 0, and more entailment never lowers P(SUPPORTS), more contradiction never raises it (constrainSigns),
 * so a model whose readings run against the labels gets no weight on them rather than a flipped one
 * (the fit gate, sanity-gates.ts, then refuses it). A fit that already keeps these signs is not changed.
 */
export function fitCalibrator(items: readonly LabelledPairs[], iterations = 3000, l2 = 1e-3, rate = 0.5): VerdictCalibrator {
  // Coverage and the twin margin are inputs when the pairs have them (one that lacks it counts as neutral).
  const inputs: CalibratorInput[] = [...(items.some((it) => it.coverage !== undefined) ? ['coverage' as const] : []), ...(items.some((it) => it.twinMargin !== undefined) ? ['twinMargin' as const] : [])];
  const xs = items.map((it) => calibratorFeatures(rawOf(it), it.relevance ?? 1, knownOf(it), inputs));
  // The labels right for each item (its gold, and RTE's further right label): the likelihood reads their total probability.
  const ys = items.map((it) => LABELS.map((l) => isRight(it, l)));
  const d = xs[0]?.length ?? 4;
  // Standardise inside the fit for stable steps; the returned weights act on raw features.
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / Math.max(xs.length, 1));
  const std = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / Math.max(xs.length, 1)));
  const constant = std.map((s) => s < CONSTANT_FEATURE_STD);
  const zs = xs.map((x) => x.map((v, j) => (constant[j] ? 0 : (v - mean[j]!) / std[j]!)));
  const K = LABELS.length;
  const w = Array.from({ length: K }, () => new Array<number>(d).fill(0));
  const b = new Array<number>(K).fill(0);
  const n = Math.max(items.length, 1);
  // Plain loops over preallocated arrays (the same sums in the same order as the map/reduce form, ~10x
  // faster: a calibration fits this 24 times, 3,000 steps each).
  const gw = Array.from({ length: K }, () => new Array<number>(d).fill(0));
  const gb = new Array<number>(K).fill(0);
  const logits = new Array<number>(K).fill(0);
  const e = new Array<number>(K).fill(0);
  for (let it = 0; it < iterations; it++) {
    for (let k = 0; k < K; k++) {
      gb[k] = 0;
      gw[k]!.fill(0);
    }
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      const y = ys[i]!;
      let m = -Infinity;
      for (let k = 0; k < K; k++) {
        let s = 0;
        const wk = w[k]!;
        for (let j = 0; j < d; j++) s = s + wk[j]! * z[j]!;
        logits[k] = b[k]! + s;
        if (logits[k]! > m) m = logits[k]!;
      }
      let sum = 0;
      let right = 0;
      for (let k = 0; k < K; k++) {
        e[k] = Math.exp(logits[k]! - m);
        sum = sum + e[k]!;
      }
      for (let k = 0; k < K; k++) right = right + (y[k] ? e[k]! : 0);
      for (let k = 0; k < K; k++) {
        const g = e[k]! / sum - (y[k] ? e[k]! / right : 0);
        gb[k]! += g / n;
        const gk = gw[k]!;
        for (let j = 0; j < d; j++) gk[j]! += (g * z[j]!) / n;
      }
    }
    for (let k = 0; k < K; k++) {
      b[k]! -= rate * gb[k]!;
      for (let j = 0; j < d; j++) w[k]![j]! -= rate * (gw[k]![j]! + l2 * w[k]![j]!);
    }
    constrainSigns(w);
  }
  // Back to raw features: w.((x - mean)/std) + b = (w/std).x + (b - w.mean/std); a constant feature has weight 0.
  const raw = (v: number, j: number) => (constant[j] ? 0 : v / std[j]!);
  const weights = w.map((wk) => wk.map((v, j) => +raw(v, j).toFixed(6)));
  const bias = b.map((bk, k) => +(bk - w[k]!.reduce((s, v, j) => s + raw(v, j) * mean[j]!, 0)).toFixed(6));
  return { weights, bias, ...(inputs.length ? { inputs } : {}) };
}

/**
 * Fits one rule: the probability calibrator (likelihood), then the relevance gate and the two thresholds
 * on the calibrated probabilities (accuracy; ties go to thresholds nearest 0.5 and the higher gate). For `concat`
 * each item holds the single prediction on the concatenated evidence: the ColumbiaNLP rule over one pair
 * makes the same decisions as the concat rule.
 */
export function fitRule(items: LabelledPairs[], source: string, opts: { relevanceInCalibrator?: boolean } = {}): RuleCalibration {
  // Without relevance in the calibrator (learn/verdict/lodo.ts: the evidence scorer's score is SciFact's
  // notion of relevance), its weight is 0: a constant input moves nothing; the gate still reads it.
  const calibrator = fitCalibrator(opts.relevanceInCalibrator === false ? items.map((it) => ({ ...it, relevance: 1 })) : items);
  const probs = items.map((it) => calibrated(calibrator, rawOf(it), it.relevance ?? 1, knownOf(it)));
  const rel = items.map((it) => it.relevance ?? 1);
  const grid: number[] = [];
  for (let t = 0.1; t <= 0.9001; t += 0.025) grid.push(+t.toFixed(3));
  const gates: number[] = [0];
  for (let g = 0.02; g <= 0.6001; g += 0.02) gates.push(+g.toFixed(2));
  let best = { s: 0.5, r: 0.5, g: 0, acc: -1 };
  for (const g of gates) {
    for (const sT of grid) {
      for (const rT of grid) {
        let ok = 0;
        const cfg = { ...DEFAULT_AGGREGATE, supportThreshold: sT, refuteThreshold: rT };
        for (let i = 0; i < items.length; i++) if (isRight(items[i]!, rel[i]! >= g ? labelOf(probs[i]!, cfg) : 'NOT ENOUGH INFO')) ok++;
        const acc = items.length ? ok / items.length : 0;
        // Among equals: thresholds nearest 0.5 and the HIGHER gate (SUPPORTS/REFUTES only on relevant evidence).
        const dist = (x: { s: number; r: number; g: number }) => Math.abs(x.s - 0.5) + Math.abs(x.r - 0.5) - x.g;
        if (acc > best.acc + 1e-12 || (Math.abs(acc - best.acc) <= 1e-12 && dist({ s: sT, r: rT, g }) < dist(best))) best = { s: sT, r: rT, g, acc };
      }
    }
  }
  const cfg: AggregateConfig = { ...DEFAULT_AGGREGATE, supportThreshold: best.s, refuteThreshold: best.r, relevanceThreshold: best.g, calibrator };
  const decided = items.map((it) => aggregateColumbia(it.evidence, cfg, it.relevance ?? 1, knownOf(it)));
  const nllValue = decided.reduce((s, d, i) => s - Math.log(Math.max(1e-9, LABELS.reduce((a, l) => a + (isRight(items[i]!, l) ? d.probs[l] : 0), 0))), 0) / Math.max(items.length, 1);
  const counts = new Map<Label, number>();
  for (const it of items) for (const l of LABELS) if (isRight(it, l)) counts.set(l, (counts.get(l) ?? 0) + 1);
  const majority = Math.max(0, ...counts.values());
  const cited = items.flatMap((it, i) => (it.shuffled === false && !it.retrieved ? [i] : []));
  return {
    supportThreshold: best.s,
    refuteThreshold: best.r,
    temperature: 1,
    relevanceThreshold: best.g,
    calibrator,
    fittedOn: {
      source,
      pairs: items.length,
      accuracy: best.acc,
      majorityBaseline: items.length ? majority / items.length : 0,
      defaultAccuracy: accuracy(items, DEFAULT_AGGREGATE),
      nll: nllValue,
      ...(cited.length ? { citedAccuracy: { pairs: cited.length, accuracy: cited.filter((i) => isRight(items[i]!, decided[i]!.label)).length / cited.length } } : {}),
      reliability: reliability(decided.map((d) => d.probs[d.label]), decided.map((d, i) => isRight(items[i]!, d.label))),
    },
  };
}

/**
 * The rule `verify` uses unless another beats it by RULE_MARGIN of held-out accuracy: ColumbiaNLP's
 * per-pair rule, the paper's and the verifier's stated default.
 */
export const INCUMBENT_RULE: VerdictRule = 'columbia';
/**
 * 1 point of accuracy (13 of SciFact train's 1,293 pairs). The two rules have come out 0.3-1.0 point apart
 * both ways on successive heads: the data cannot tell them apart at that distance, and the default should
 * not flip on a handful of pairs. The same margin as the heads' linear-vs-MLP choice.
 */
export const RULE_MARGIN = 0.01;

/** What the choice compares: held-out accuracy where every rule has it, else the in-sample fit's (older files, tests). */
function choiceAccuracy(r: RuleCalibration, heldOut: boolean): number {
  return heldOut ? r.fittedOn.heldOut!.accuracy : r.fittedOn.accuracy;
}

export function chooseRule(rules: Partial<Record<VerdictRule, RuleCalibration>>): VerdictRule {
  const entries = Object.entries(rules) as [VerdictRule, RuleCalibration][];
  const heldOut = entries.every(([, r]) => r.fittedOn.heldOut);
  const ranked = entries.sort((a, b) => choiceAccuracy(b[1], heldOut) - choiceAccuracy(a[1], heldOut));
  const incumbent = rules[INCUMBENT_RULE];
  if (incumbent && choiceAccuracy(ranked[0]![1], heldOut) - choiceAccuracy(incumbent, heldOut) < RULE_MARGIN) return INCUMBENT_RULE;
  return ranked[0]![0];
}

/**
 * Fits every rule on all its pairs (what ships) and, with `heldOut` (default: 5 folds x 3 repeats), also
 * measures each fit on pairs it did not see; the rule choice reads the held-out figure. Pass
 * `heldOut: false` to skip it (one rule, or quick fits in tests).
 */
export function fitVerdictCalibration(
  byRule: Partial<Record<VerdictRule, LabelledPairs[]>>,
  source: string,
  models: ModelInfo[],
  opts: { heldOut?: HeldOutOptions | false } = {},
): VerdictCalibration {
  const heldOut = opts.heldOut === undefined ? DEFAULT_HELD_OUT : opts.heldOut;
  const rules: Partial<Record<VerdictRule, RuleCalibration>> = {};
  const documentRules: Partial<Record<VerdictRule, RuleCalibration>> = {};
  const fit = (items: LabelledPairs[]) => {
    const fitted = fitRule(items, source);
    if (heldOut) fitted.fittedOn.heldOut = heldOutAccuracy(items, (train) => fitRule(train, source), heldOut);
    return fitted;
  };
  for (const [rule, items] of Object.entries(byRule) as [VerdictRule, LabelledPairs[]][]) {
    // verify's rules read no coverage (VerdictCalibration.rules); one document judged alone does.
    rules[rule] = fit(items.map(({ coverage: _, ...it }) => it));
    if (items.some((it) => it.coverage !== undefined)) documentRules[rule] = fit(items);
  }
  const bestRule = chooseRule(rules);
  return {
    rules,
    ...(Object.keys(documentRules).length ? { documentRules } : {}),
    bestRule,
    models: models.map((m) => ({ id: m.id, version: m.version })),
    createdAt: new Date().toISOString(),
  };
}

export async function saveVerdictCalibration(c: VerdictCalibration, path = CALIBRATION_PATH): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(c, null, 2) + '\n');
}


/** Each calibrator feature's standard deviation over `items` (what fitGate reads a weight against). */
export function calibratorSpread(items: readonly LabelledPairs[], c: VerdictCalibrator): number[] {
  const inputs = c.inputs ?? [];
  const xs = items.map((it) => calibratorFeatures(rawOf(it), it.relevance ?? 1, knownOf(it), inputs));
  const d = xs[0]?.length ?? 0;
  return Array.from({ length: d }, (_, j) => {
    const mean = xs.reduce((s, x) => s + x[j]!, 0) / Math.max(xs.length, 1);
    return Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean) ** 2, 0) / Math.max(xs.length, 1));
  });
}
