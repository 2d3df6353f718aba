/**
 * Training the source ranker: a linear model over rank features, fitted listwise (softmax over each
 * claim's candidates, cross-entropy against the cited document), full-batch gradient descent from zero
 * weights, so the same data gives the same weights on every run. Also grouped k-fold cross-validation:
 * claims are split by article, so no fold is scored by a model that saw a claim of the same article
 * (neighbouring claims cite the same pages).
 */
import { uniform } from '../../util/rng.js';
import { linearScore } from '../../audit/source-ranker.js';

export { linearScore };

export interface RankingExample {
  /** Candidate feature rows. */
  x: number[][];
  /** 1 for a relevant (cited) candidate, else 0. */
  y: number[];
  /** Cross-validation group (the article). */
  group: string;
}

export interface ListwiseOptions {
  /** L2 penalty on the weights (default 0.01). */
  l2?: number;
  /** Gradient steps (default 3000). */
  iterations?: number;
  /** Step size (default 0.5). */
  learningRate?: number;
}

function softmax(s: number[]): number[] {
  const m = Math.max(...s);
  const e = s.map((v) => Math.exp(v - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

/** Examples with a relevant candidate: the others carry no signal (the cited page was not retrieved). */
function withRelevant(data: readonly RankingExample[]): RankingExample[] {
  return data.filter((d) => d.y.some((v) => v > 0));
}

/** Mean listwise cross-entropy + L2 (the objective `trainListwise` minimises). */
export function listwiseLoss(w: readonly number[], data: readonly RankingExample[], l2 = 0.01): number {
  const usable = withRelevant(data);
  let loss = 0;
  for (const d of usable) {
    const p = softmax(d.x.map((x) => linearScore(w, x)));
    const total = d.y.reduce((a, b) => a + b, 0);
    d.y.forEach((v, i) => {
      if (v > 0) loss -= (v / total) * Math.log(Math.max(p[i]!, 1e-300));
    });
  }
  return loss / Math.max(1, usable.length) + (l2 / 2) * w.reduce((a, v) => a + v * v, 0);
}

export function trainListwise(data: readonly RankingExample[], dim: number, opts: ListwiseOptions = {}): number[] {
  const l2 = opts.l2 ?? 0.01;
  const iterations = opts.iterations ?? 3000;
  const lr = opts.learningRate ?? 0.5;
  const usable = withRelevant(data);
  for (const d of usable) for (const x of d.x) if (x.length !== dim) throw new RangeError(`feature row of length ${x.length}, expected ${dim}`);
  const w = new Array<number>(dim).fill(0);
  if (usable.length === 0) return w;
  const g = new Array<number>(dim);
  for (let it = 0; it < iterations; it++) {
    for (let j = 0; j < dim; j++) g[j] = l2 * w[j]!;
    for (const d of usable) {
      const p = softmax(d.x.map((x) => linearScore(w, x)));
      const total = d.y.reduce((a, b) => a + b, 0);
      for (let i = 0; i < d.x.length; i++) {
        const coef = (p[i]! - d.y[i]! / total) / usable.length;
        const x = d.x[i]!;
        for (let j = 0; j < dim; j++) g[j]! += coef * x[j]!;
      }
    }
    for (let j = 0; j < dim; j++) w[j]! -= lr * g[j]!;
  }
  return w;
}

/** Fold (0..k-1) of each group: groups shuffled with a seeded PRNG, then dealt round-robin. */
export function assignFolds(groups: Iterable<string>, k: number, seed: number): Map<string, number> {
  const sorted = [...new Set(groups)].sort();
  const rand = uniform(seed);
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j]!, sorted[i]!];
  }
  return new Map(sorted.map((g, i) => [g, i % k]));
}

/**
 * Held-out scores for every example: each fold scored by weights trained on the other folds.
 * Returns the scores (parallel to data[i].x) and each fold's weights.
 */
export function crossValidatedScores(data: readonly RankingExample[], dim: number, k: number, seed: number, opts: ListwiseOptions = {}): { scores: number[][]; foldWeights: number[][] } {
  if (!(k >= 2)) throw new RangeError(`cross-validation needs at least 2 folds, got ${k}`);
  const fold = assignFolds(data.map((d) => d.group), k, seed);
  const scores: number[][] = data.map(() => []);
  const foldWeights: number[][] = [];
  for (let f = 0; f < k; f++) {
    const w = trainListwise(data.filter((d) => fold.get(d.group) !== f), dim, opts);
    foldWeights.push(w);
    data.forEach((d, i) => {
      if (fold.get(d.group) === f) scores[i] = d.x.map((x) => linearScore(w, x));
    });
  }
  return { scores, foldWeights };
}
