/**
 * The reliability diagram's bins, from the one reliability computation (verify/reliability.ts: equal-width
 * bins, expected calibration error) in the shape the chart draws.
 */
import { reliability } from '../verify/reliability.js';
import type { ReliabilityBin } from './charts.js';

export interface Outcome {
  /** A predicted probability in [0, 1]. */
  p: number;
  /** Whether the predicted event happened. */
  y: boolean;
}

export function reliabilityBins(items: readonly Outcome[], nBins = 10): ReliabilityBin[] {
  for (const { p } of items) if (!(p >= 0 && p <= 1)) throw new Error(`reliability: ${p} is not a probability (0..1)`);
  const r = reliability(
    items.map((i) => i.p),
    items.map((i) => i.y),
    nBins,
  );
  return r.bins.map((b) => ({ lower: b.from, upper: b.to, count: b.n, meanPredicted: b.n ? b.meanConfidence : (b.from + b.to) / 2, observed: b.observed }));
}

export function expectedCalibrationError(bins: readonly ReliabilityBin[]): number {
  const n = bins.reduce((a, b) => a + b.count, 0);
  return n ? bins.reduce((a, b) => a + (b.count / n) * Math.abs(b.meanPredicted - b.observed), 0) : 0;
}
