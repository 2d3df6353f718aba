/**
 * ROC AUC as the chance that a score drawn from one group (the citations that should score high, such as
 * supported ones) beats a score drawn from the other (contradicted ones, say): the Mann-Whitney form,
 * ties counting half. 0.5 is chance, 1 perfect separation, below 0.5 the groups are the wrong way round.
 * Used by the citation-set scorer (citation-set.ts) for "does P(supports) separate supported citations from
 * contradicted / changed-number / wrong-source ones" (issue 43).
 */
import { rocAuc } from '../learn/detection-metrics.js';

/** The AUC of `high` against `low`; undefined when either group is empty (no figure is better than a made-up one). */
export function separationAuc(high: readonly number[], low: readonly number[]): number | undefined {
  if (high.length === 0 || low.length === 0) return undefined;
  for (const x of [...high, ...low]) if (!Number.isFinite(x)) throw new Error(`separationAuc: score ${x} is not a finite number`);
  // The project's one Mann-Whitney AUC (mid-ranks for ties), with the high group as the positives.
  return rocAuc([...high, ...low], [...high.map(() => true), ...low.map(() => false)]);
}
