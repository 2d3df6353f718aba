/**
 * The audit's flag signal (the engine's score, the source ranker's linear score, or the probability of
 * support) as one calibrated probability that the cited source supports the claim: a logistic curve
 * P(supported | signal) = 1 / (1 + e^-(a·signal + b)) fitted by likelihood on labelled citations (Platt
 * scaling). It is monotone, so ordering by it is ordering by the signal, and the flag threshold reads on the
 * same scale. Full-batch gradient descent from zero on standardised signals: the same data give the same
 * curve on every run.
 */
import type { ProbabilityCalibration } from '../audit/calibration.js';
import { reliability } from '../verify/reliability.js';

export function fitProbability(items: readonly { signal: number; supported: boolean }[], source: string, iterations = 4000, rate = 0.5, l2 = 1e-4): ProbabilityCalibration {
  const xs = items.map((i) => i.signal).filter(Number.isFinite);
  if (xs.length !== items.length || items.length < 2) throw new Error(`probability calibration needs at least 2 finite scores (got ${xs.length} of ${items.length})`);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const std = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) || 1;
  let w = 0;
  let c = 0;
  const n = items.length;
  for (let it = 0; it < iterations; it++) {
    let gw = 0;
    let gc = 0;
    for (const item of items) {
      const z = (item.signal - mean) / std;
      const p = 1 / (1 + Math.exp(-(w * z + c)));
      const g = p - (item.supported ? 1 : 0);
      gw += (g * z) / n;
      gc += g / n;
    }
    w -= rate * (gw + l2 * w);
    c -= rate * gc;
  }
  // Back to raw signal units: w·(x - mean)/std + c = (w/std)·x + (c - w·mean/std).
  const a = w / std;
  const b = c - (w * mean) / std;
  const rounded = { a: +a.toPrecision(8), b: +b.toPrecision(8) };
  const r = reliability(
    items.map((i) => 1 / (1 + Math.exp(-(rounded.a * i.signal + rounded.b)))),
    items.map((i) => i.supported),
  );
  return { ...rounded, event: 'supported', fittedOn: { source, n, positives: items.filter((i) => i.supported).length }, ece: +r.ece.toFixed(4), reliability: r };
}
