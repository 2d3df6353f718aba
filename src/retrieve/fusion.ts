/**
 * Combining a sparse and a dense ranking of passages.
 *
 * - union (SIDE): the top-k of each list, deduplicated; the union is meant to be re-ranked by the
 *   verification engine. Until then it is ordered by reciprocal rank so the order is still sensible.
 * - rrf: reciprocal rank fusion, score = Σ 1 / (c + rank) (Cormack et al. 2009; c = 60 by default).
 * - weighted: min-max normalise each list's scores to [0, 1], then w·sparse + (1 - w)·dense.
 */
import type { RankedPassage } from './types.js';

export type FusionMethod = 'union' | 'rrf' | 'weighted';

/** Defaults when a FusionConfig leaves them out: the RRF paper's constant, and equal weights. */
export const DEFAULT_RRF_K = 60;
export const DEFAULT_SPARSE_WEIGHT = 0.5;

export interface FusionConfig {
  method: FusionMethod;
  /** RRF constant. */
  rrfK?: number;
  /** Weight of the sparse list in weighted fusion. */
  sparseWeight?: number;
}

export interface FusedPassage extends RankedPassage {
  /** Rank in each input list (absent when the passage was not in it). */
  sparseRank?: number;
  denseRank?: number;
  sparseScore?: number;
  denseScore?: number;
}

function collect(sparse: RankedPassage[], dense: RankedPassage[]): Map<string, FusedPassage> {
  const byId = new Map<string, FusedPassage>();
  for (const p of sparse) byId.set(p.passage.id, { ...p, score: 0, rank: 0, sparseRank: p.rank, sparseScore: p.score });
  for (const p of dense) {
    const hit = byId.get(p.passage.id);
    if (hit) {
      hit.denseRank = p.rank;
      hit.denseScore = p.score;
    } else byId.set(p.passage.id, { ...p, score: 0, rank: 0, denseRank: p.rank, denseScore: p.score });
  }
  return byId;
}

function rrfScore(p: FusedPassage, c: number): number {
  return (p.sparseRank ? 1 / (c + p.sparseRank) : 0) + (p.denseRank ? 1 / (c + p.denseRank) : 0);
}

function minMax(list: RankedPassage[]): (score: number | undefined) => number {
  if (list.length === 0) return () => 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of list) {
    lo = Math.min(lo, p.score);
    hi = Math.max(hi, p.score);
  }
  const span = hi - lo;
  return (s) => (s === undefined ? 0 : span > 0 ? (s - lo) / span : 1);
}

export function fuse(sparse: RankedPassage[], dense: RankedPassage[], config: FusionConfig): FusedPassage[] {
  const merged = [...collect(sparse, dense).values()];
  const c = config.rrfK ?? DEFAULT_RRF_K;
  if (config.method === 'weighted') {
    const w = config.sparseWeight ?? DEFAULT_SPARSE_WEIGHT;
    const ns = minMax(sparse);
    const nd = minMax(dense);
    for (const p of merged) p.score = w * ns(p.sparseScore) + (1 - w) * nd(p.denseScore);
  } else {
    for (const p of merged) p.score = rrfScore(p, c);
  }
  merged.sort((a, b) => b.score - a.score || a.passage.id.localeCompare(b.passage.id));
  merged.forEach((p, i) => (p.rank = i + 1));
  return merged;
}
