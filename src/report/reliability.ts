/**
 * Calibration of probabilities against outcomes: equal-width bins over [0, 1] (the reliability diagram's
 * usual form, e.g. Guo et al. 2017) and the expected calibration error, the bin-size weighted mean gap
 * between predicted probability and observed frequency.
 */
import type { ReliabilityBin } from './charts.js';

export interface Outcome {
  /** A predicted probability in [0, 1]. */
  p: number;
  /** Whether the predicted event happened. */
  y: boolean;
}

export function reliabilityBins(items: readonly Outcome[], nBins = 10): ReliabilityBin[] {
  const bins = Array.from({ length: nBins }, (_, i) => ({ lower: i / nBins, upper: (i + 1) / nBins, sumP: 0, pos: 0, count: 0 }));
  for (const { p, y } of items) {
    if (!(p >= 0 && p <= 1)) throw new Error(`reliability: ${p} is not a probability (0..1)`);
    const b = bins[Math.min(nBins - 1, Math.floor(p * nBins))]!;
    b.sumP += p;
    b.pos += y ? 1 : 0;
    b.count++;
  }
  return bins.map((b) => ({ lower: b.lower, upper: b.upper, count: b.count, meanPredicted: b.count ? b.sumP / b.count : (b.lower + b.upper) / 2, observed: b.count ? b.pos / b.count : 0 }));
}

export function expectedCalibrationError(bins: readonly ReliabilityBin[]): number {
  const n = bins.reduce((a, b) => a + b.count, 0);
  return n ? bins.reduce((a, b) => a + (b.count / n) * Math.abs(b.meanPredicted - b.observed), 0) : 0;
}
