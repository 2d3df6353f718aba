/**
 * How well stated probabilities match what happens: expected calibration error (ECE) and a reliability
 * table (equal-width bins of the stated probability; per bin: count, mean stated probability, observed
 * frequency). Used by the verdict calibration (on train) and the evaluations (on dev).
 */
export interface ReliabilityBin {
  /** [from, to) of the stated probability (the last bin includes 1). */
  from: number;
  to: number;
  n: number;
  meanConfidence: number;
  /** Share of the bin's predictions that were right. */
  observed: number;
}

export interface Reliability {
  n: number;
  /** Sum over bins of (bin share) x |mean confidence - observed frequency|. */
  ece: number;
  bins: ReliabilityBin[];
}

/** `confidence[i]`: the probability stated for the event; `correct[i]`: whether it happened. */
export function reliability(confidence: readonly number[], correct: readonly boolean[], binCount = 10): Reliability {
  if (confidence.length !== correct.length) throw new Error(`reliability: ${confidence.length} probabilities for ${correct.length} outcomes`);
  const bins = Array.from({ length: binCount }, (_, b) => ({ from: b / binCount, to: (b + 1) / binCount, n: 0, sum: 0, hits: 0 }));
  confidence.forEach((p, i) => {
    const b = bins[Math.min(binCount - 1, Math.max(0, Math.floor(p * binCount)))]!;
    b.n++;
    b.sum += p;
    if (correct[i]) b.hits++;
  });
  const n = confidence.length;
  let ece = 0;
  const out = bins.map((b) => {
    const meanConfidence = b.n ? b.sum / b.n : 0;
    const observed = b.n ? b.hits / b.n : 0;
    if (b.n) ece += (b.n / n) * Math.abs(meanConfidence - observed);
    return { from: b.from, to: b.to, n: b.n, meanConfidence, observed };
  });
  return { n, ece, bins: out };
}

/** Markdown table of a reliability result (bins with no predictions left out). */
export function reliabilityTable(r: Reliability): string {
  const rows = r.bins.filter((b) => b.n).map((b) => `| ${b.from.toFixed(1)}-${b.to.toFixed(1)} | ${b.n} | ${b.meanConfidence.toFixed(3)} | ${b.observed.toFixed(3)} |`);
  return ['| stated probability | n | mean stated | observed |', '|---|---:|---:|---:|', ...rows, `ECE ${r.ece.toFixed(3)} over ${r.n}`].join('\n');
}
