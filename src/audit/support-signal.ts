/**
 * The audit's support signal when its calibration carries weights for it: the log-odds that a cited page
 * at least partly supports the claim, from two inputs measured separately:
 *
 *   bias + support x logit(P(supports)) + similarity x pageSimilarity
 *
 * P(supports) (support.ts) is what the NLI model reads in the page's best evidence, fitted on SciFact
 * abstracts; the page similarity (page-similarity.ts) is whether the page words the claim at all. Each
 * misses what the other sees: on WiCE dev P(supports) alone detects not_supported citations with ROC AUC
 * 0.82, the similarity alone 0.86, the two together 0.88 out of fold (learn/support-signal.ts,
 * docs/RESULTS-HISTORY.md). The weights are fitted by `veracite calibrate --signal support` on labelled citations
 * and stored in the calibration file (calibration.ts `supportSignal`), beside the threshold and the
 * probability curve read on this signal.
 */

export interface SupportSignalWeights {
  bias: number;
  /** Weight of logit(P(supports)). */
  support: number;
  /** Weight of the page similarity. */
  similarity: number;
}

/** Detection figures of the fitted signal on citations its weights were fitted without (learn/support-signal.ts). */
export interface OutOfFold {
  folds: number;
  seeds: number[];
  /** Means over the fold seeds, not_supported as positives. */
  rocAuc: number;
  precisionAt15Recall: number;
  averagePrecision: number;
  /** The same for P(supports) alone, on the same citations. */
  supportAlone: { rocAuc: number; precisionAt15Recall: number; averagePrecision: number };
}

/** What a calibration file stores: the weights, what they read, what they were fitted on and how well they do out of fold. */
export interface SupportSignalFit extends SupportSignalWeights {
  inputs: string;
  fittedOn: { source: string; n: number; fails: number };
  outOfFold: OutOfFold;
}

const EPS = 1e-6;

export const logit = (p: number): number => {
  const q = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(q / (1 - q));
};

/** The signal a threshold applies to (higher = better supported). */
export function supportSignal(probability: number, similarity: number, w: SupportSignalWeights): number {
  return w.bias + w.support * logit(probability) + w.similarity * similarity;
}
