/**
 * Threshold-free and threshold metrics for "flag this citation" detectors: precision-recall curve,
 * precision at a recall level (SIDE reports precision at 15% recall), ROC AUC, and the threshold that a
 * criterion picks. Convention: `scores` are detection scores, HIGHER = more likely positive (the citation
 * fails verification); callers pass e.g. the negated support score.
 */

export interface PrPoint {
  /** Flag when detection score >= threshold. */
  threshold: number;
  precision: number;
  recall: number;
  /** Items flagged at this threshold. */
  flagged: number;
  truePositives: number;
}

/**
 * One point per distinct score, from the strictest threshold down; tied scores enter together (no
 * arbitrary order among ties).
 */
export function prCurve(scores: readonly number[], positive: readonly boolean[]): PrPoint[] {
  if (scores.length !== positive.length) throw new Error('scores and labels differ in length');
  const totalPos = positive.filter(Boolean).length;
  const order = scores.map((s, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  const points: PrPoint[] = [];
  let tp = 0;
  let n = 0;
  for (let i = 0; i < order.length; ) {
    const s = scores[order[i]!]!;
    while (i < order.length && scores[order[i]!] === s) {
      if (positive[order[i]!]) tp++;
      n++;
      i++;
    }
    points.push({ threshold: s, precision: tp / n, recall: totalPos ? tp / totalPos : 0, flagged: n, truePositives: tp });
  }
  return points;
}

/** Highest precision among thresholds reaching at least `recall` (the usual interpolated reading). */
export function precisionAtRecall(curve: readonly PrPoint[], recall: number): number {
  let best = 0;
  for (const p of curve) if (p.recall >= recall - 1e-12) best = Math.max(best, p.precision);
  return best;
}

/** Average precision (area under the step PR curve, as sklearn's average_precision_score). */
export function averagePrecision(curve: readonly PrPoint[]): number {
  let ap = 0;
  let prevRecall = 0;
  for (const p of curve) {
    ap += (p.recall - prevRecall) * p.precision;
    prevRecall = p.recall;
  }
  return ap;
}

/** ROC AUC = P(score of a random positive > score of a random negative), ties counting one half. */
export function rocAuc(scores: readonly number[], positive: readonly boolean[]): number {
  const idx = scores.map((s, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  // Mid-ranks handle ties (Mann-Whitney U).
  const rank = new Array<number>(scores.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    for (let k = i; k <= j; k++) rank[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  let nPos = 0;
  let sumPos = 0;
  positive.forEach((p, i) => {
    if (p) {
      nPos++;
      sumPos += rank[i]!;
    }
  });
  const nNeg = scores.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (sumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export type ThresholdCriterion = { kind: 'max-f1' } | { kind: 'precision'; target: number } | { kind: 'recall'; target: number };

export function parseCriterion(s: string): ThresholdCriterion {
  if (s === 'max-f1' || s === 'f1') return { kind: 'max-f1' };
  const m = /^(precision|recall)[:=@]?(0?\.\d+|1(?:\.0+)?)$/.exec(s);
  if (!m) throw new Error(`criterion must be max-f1, precision:<0..1> or recall:<0..1> (got "${s}")`);
  return { kind: m[1] as 'precision' | 'recall', target: Number(m[2]) };
}

export function f1(p: PrPoint): number {
  return p.precision + p.recall > 0 ? (2 * p.precision * p.recall) / (p.precision + p.recall) : 0;
}

/**
 * The operating point a criterion picks: max F1; the highest recall whose precision reaches the target
 * (falling back to max F1 when none does); or the first point reaching the recall target.
 */
export function chooseOperatingPoint(curve: readonly PrPoint[], criterion: ThresholdCriterion): { point: PrPoint; met: boolean } {
  if (curve.length === 0) throw new Error('empty curve');
  const maxF1 = curve.reduce((a, b) => (f1(b) > f1(a) ? b : a));
  if (criterion.kind === 'max-f1') return { point: maxF1, met: true };
  if (criterion.kind === 'precision') {
    const ok = curve.filter((p) => p.precision >= criterion.target && p.truePositives > 0);
    return ok.length ? { point: ok.reduce((a, b) => (b.recall > a.recall ? b : a)), met: true } : { point: maxF1, met: false };
  }
  const reach = curve.find((p) => p.recall >= criterion.target);
  return reach ? { point: reach, met: true } : { point: curve[curve.length - 1]!, met: false };
}
