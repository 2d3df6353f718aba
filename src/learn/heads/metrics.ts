/**
 * Evaluation figures for the training reports: classification accuracy / confusion, and for the
 * evidence scorer thresholded P/R/F1 plus per-claim ranking metrics.
 */

export interface ClassificationReport {
  n: number;
  accuracy: number;
  /** Mean of the per-class accuracies: what a skewed class mix (e.g. many neutral SciFact pairs) cannot inflate. */
  balancedAccuracy: number;
  /** Per gold class: recall (accuracy on that class) and count. */
  perClass: Record<string, { n: number; accuracy: number }>;
  /** confusion[gold][predicted] counts, in `labels` order. */
  confusion: number[][];
  labels: string[];
}

/** `gold` and `pred` are class indices. */
export function classificationReport(gold: number[], pred: number[], labels: string[]): ClassificationReport {
  const k = labels.length;
  const confusion = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  gold.forEach((g, i) => confusion[g][pred[i]]++);
  const perClass: ClassificationReport['perClass'] = {};
  let correct = 0;
  labels.forEach((l, c) => {
    const n = confusion[c].reduce((a, b) => a + b, 0);
    correct += confusion[c][c];
    perClass[l] = { n, accuracy: n ? confusion[c][c] / n : 0 };
  });
  const present = labels.filter((l) => perClass[l].n > 0);
  const balancedAccuracy = present.length ? present.reduce((a, l) => a + perClass[l].accuracy, 0) / present.length : 0;
  return { n: gold.length, accuracy: gold.length ? correct / gold.length : 0, balancedAccuracy, perClass, confusion, labels };
}

export function argmax(p: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i] > p[best]) best = i;
  return best;
}

export interface BinaryReport {
  threshold: number;
  n: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
}

export function binaryReport(scores: number[], gold: boolean[], threshold: number): BinaryReport {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  scores.forEach((s, i) => {
    if (s >= threshold) gold[i] ? tp++ : fp++;
    else if (gold[i]) fn++;
  });
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { threshold, n: scores.length, positives: tp + fn, precision, recall, f1 };
}

/** The threshold (among the observed scores) with the best F1; ties go to the higher threshold. */
export function bestF1Threshold(scores: number[], gold: boolean[]): BinaryReport {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const positives = gold.filter(Boolean).length;
  let tp = 0;
  let best: BinaryReport = binaryReport(scores, gold, 1.01);
  order.forEach((i, rank) => {
    if (gold[i]) tp++;
    // Only cut between distinct scores, so the threshold reproduces exactly this prediction set.
    if (rank + 1 < order.length && scores[order[rank + 1]] === scores[i]) return;
    const precision = tp / (rank + 1);
    const recall = positives ? tp / positives : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    if (f1 > best.f1) best = { threshold: scores[i], n: scores.length, positives, precision, recall, f1 };
  });
  return best;
}

/** Average precision of the positives in one ranked list (scores, gold); 0 when there are none. */
export function averagePrecision(scores: number[], gold: boolean[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  let hits = 0;
  let sum = 0;
  order.forEach((i, rank) => {
    if (gold[i]) {
      hits++;
      sum += hits / (rank + 1);
    }
  });
  return hits ? sum / hits : 0;
}

/** Fraction of positives ranked in the top k. */
export function recallAtK(scores: number[], gold: boolean[], k: number): number {
  const positives = gold.filter(Boolean).length;
  if (!positives) return 0;
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, k).filter((i) => gold[i]).length / positives;
}
