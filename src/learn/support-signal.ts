/**
 * Fits the audit's support signal (audit/support-signal.ts) on labelled citations: logistic regression of
 * "the cited page at least partly supports the claim" (WiCE label other than not_supported) on
 * [logit P(supports), page similarity]. Full-batch gradient descent from zero on standardised inputs with a
 * little L2: the same data give the same weights on every run.
 *
 * The only labelled Wikipedia citations here are WiCE dev's, so the fit is also judged out of fold: k folds
 * over articles (a claim's article mates share its page style and topic), repeated over several fold seeds,
 * every citation scored by weights fitted without its article. The pooled out-of-fold scores give the
 * detection figures the calibration file records (`outOfFold`); the shipped weights are fitted on all of it.
 */
import { averagePrecision, precisionAtRecall, prCurve, rocAuc } from './detection-metrics.js';
import { logit, supportSignal, type OutOfFold, type SupportSignalFit, type SupportSignalWeights } from '../audit/support-signal.js';
import { Rng, subSeed } from '../util/rng.js';

export interface SupportSignalRow {
  /** P(supports) of the cited page (audit/support.ts). */
  probability: number;
  /** audit/page-similarity.ts */
  similarity: number;
  /** The citation fails: WiCE not_supported. */
  fails: boolean;
  /** Rows of one group (the claim's article) share a fold. */
  group: string;
}

const features = (r: SupportSignalRow): [number, number] => [logit(r.probability), r.similarity];

export function fitSupportSignalWeights(rows: readonly SupportSignalRow[], iterations = 3000, rate = 0.5, l2 = 1e-3): SupportSignalWeights {
  const n = rows.length;
  if (n < 2 || rows.every((r) => r.fails) || rows.every((r) => !r.fails)) throw new Error(`the support signal needs citations of both kinds (got ${n}, ${rows.filter((r) => r.fails).length} failing)`);
  const xs = rows.map(features);
  const mean = [0, 1].map((j) => xs.reduce((s, x) => s + x[j]!, 0) / n);
  const std = [0, 1].map((j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n) || 1);
  const zs = xs.map((x) => x.map((v, j) => (v - mean[j]!) / std[j]!));
  const w = [0, 0];
  let b = 0;
  for (let it = 0; it < iterations; it++) {
    const g = [0, 0];
    let gb = 0;
    zs.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(b + w[0]! * z[0]! + w[1]! * z[1]!)));
      const e = p - (rows[i]!.fails ? 0 : 1);
      g[0]! += (e * z[0]!) / n;
      g[1]! += (e * z[1]!) / n;
      gb += e / n;
    });
    for (const j of [0, 1]) w[j]! -= rate * (g[j]! + l2 * w[j]!);
    b -= rate * gb;
  }
  // Back to raw units: w.(x - mean)/std + b.
  const support = w[0]! / std[0]!;
  const similarity = w[1]! / std[1]!;
  const bias = b - support * mean[0]! - similarity * mean[1]!;
  return { bias: +bias.toPrecision(8), support: +support.toPrecision(8), similarity: +similarity.toPrecision(8) };
}

function detection(scores: readonly number[], rows: readonly SupportSignalRow[]) {
  const flagged = scores.map((s) => -s);
  const pos = rows.map((r) => r.fails);
  const curve = prCurve(flagged, pos);
  return { rocAuc: rocAuc(flagged, pos), precisionAt15Recall: precisionAtRecall(curve, 0.15), averagePrecision: averagePrecision(curve) };
}

/** Out-of-fold detection figures of the fit: `folds` folds over groups, for each seed. */
export function outOfFold(rows: readonly SupportSignalRow[], folds = 5, seeds: readonly number[] = [13, 14, 15, 16, 17]): OutOfFold {
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  if (groups.length < folds) throw new Error(`out-of-fold figures need at least ${folds} groups (got ${groups.length})`);
  const runs = seeds.map((seed) => {
    const order = new Rng(subSeed(seed, 'support-signal-folds')).shuffle(groups.slice());
    const fold = new Map(order.map((g, i) => [g, i % folds] as const));
    const scores = new Array<number>(rows.length).fill(0);
    for (let k = 0; k < folds; k++) {
      const w = fitSupportSignalWeights(rows.filter((r) => fold.get(r.group) !== k));
      rows.forEach((r, i) => {
        if (fold.get(r.group) === k) scores[i] = supportSignal(r.probability, r.similarity, w);
      });
    }
    return detection(scores, rows);
  });
  const mean = (f: (x: ReturnType<typeof detection>) => number) => +(runs.reduce((s, x) => s + f(x), 0) / runs.length).toFixed(4);
  const alone = detection(rows.map((r) => r.probability), rows);
  return {
    folds,
    seeds: [...seeds],
    rocAuc: mean((x) => x.rocAuc),
    precisionAt15Recall: mean((x) => x.precisionAt15Recall),
    averagePrecision: mean((x) => x.averagePrecision),
    supportAlone: { rocAuc: +alone.rocAuc.toFixed(4), precisionAt15Recall: +alone.precisionAt15Recall.toFixed(4), averagePrecision: +alone.averagePrecision.toFixed(4) },
  };
}

export function fitSupportSignal(rows: readonly SupportSignalRow[], source: string): SupportSignalFit {
  return {
    ...fitSupportSignalWeights(rows),
    inputs: 'bias + support x logit(P(supports)) + similarity x page similarity (TF-IDF cosine of the claim to the page\'s best ~100-word passage)',
    fittedOn: { source, n: rows.length, fails: rows.filter((r) => r.fails).length },
    outOfFold: outOfFold(rows),
  };
}
