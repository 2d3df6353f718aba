/**
 * ROC AUC as the chance that a score drawn from one group (the citations that should score high, such as
 * supported ones) beats a score drawn from the other (contradicted ones, say): the Mann-Whitney form,
 * ties counting half. 0.5 is chance, 1 perfect separation, below 0.5 the groups are the wrong way round.
 * Used by the citation-set scorer (citation-set.ts) for "does P(supports) separate supported citations from
 * contradicted / changed-number / wrong-source ones" (issue 43).
 */

/** The AUC of `high` against `low`; undefined when either group is empty (no figure is better than a made-up one). */
export function separationAuc(high: readonly number[], low: readonly number[]): number | undefined {
  if (high.length === 0 || low.length === 0) return undefined;
  for (const x of [...high, ...low]) if (!Number.isFinite(x)) throw new Error(`separationAuc: score ${x} is not a finite number`);
  // Rank all scores together (average ranks for ties); the high group's rank sum gives U.
  const all = [...high.map((s) => ({ s, high: true })), ...low.map((s) => ({ s, high: false }))].sort((a, b) => a.s - b.s);
  let rankSumHigh = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.s === all[i]!.s) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]!.high) rankSumHigh += rank;
    i = j + 1;
  }
  const u = rankSumHigh - (high.length * (high.length + 1)) / 2;
  return u / (high.length * low.length);
}
