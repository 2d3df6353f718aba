/**
 * Document-level retrieval metrics, pure functions.
 *
 * Definitions follow trec_eval as exposed by pytrec_eval (and therefore BEIR):
 * - nDCG@k: DCG = sum_{i=1..k} gain(d_i) / log2(i + 1) with gain = the graded qrel value (linear, not 2^rel - 1,
 *   which is what trec_eval's `ndcg_cut` does); ideal DCG sorts the query's qrel values descending and cuts at k.
 * - Recall@k = |relevant in top k| / |relevant|.
 * - MRR(@k) = 1 / rank of the first relevant doc (within k), 0 when none.
 * - P@1 = 1 if the top doc is relevant.
 * - SR@k (success rate) = 1 if at least one relevant doc is in the top k.
 * A doc is "relevant" when its qrel value is > 0 (pytrec_eval's default relevance_level = 1 for integer qrels);
 * qrel values <= 0 count as gain 0, so judged-non-relevant rows never add to DCG or ideal DCG.
 *
 * Differences from pytrec_eval that are deliberate and documented:
 * - The ranked list is taken in the given order. trec_eval re-sorts a run by score (ties by doc id descending);
 *   use `sortLikeTrecEval` first if you need identical tie handling.
 * - Duplicate doc ids keep their first (best) position; pytrec_eval receives a dict, so duplicates cannot exist there.
 */

/** Relevance judgements of one query: doc id -> graded relevance. */
export type QueryQrels = ReadonlyMap<string, number>;
/** All judgements: query id -> doc id -> graded relevance. */
export type Qrels = ReadonlyMap<string, QueryQrels>;

export interface QueryMetrics {
  /** Keys such as "ndcg@10", "recall@100", "sr@5", "mrr@10", plus "mrr" (over the whole list) and "p@1". */
  values: Record<string, number>;
  /** 1-based rank of the first relevant doc in the deduplicated list, or null when none was retrieved. */
  firstRelevantRank: number | null;
  /** Number of docs with relevance > 0 in the qrels. */
  nRelevant: number;
}

/** Keep the first occurrence of every doc id; later duplicates would otherwise be counted twice. */
export function dedupeRanking(ranked: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranked) {
    if (!seen.has(id)) {
      seen.add(id);
      out.push(id);
    }
  }
  return out;
}

/**
 * Order hits the way trec_eval does before scoring: score descending, ties broken by doc id descending
 * (string comparison). Duplicates keep their best score.
 */
export function sortLikeTrecEval(hits: readonly { docId: string; score: number }[]): string[] {
  const best = new Map<string, number>();
  for (const h of hits) {
    const prev = best.get(h.docId);
    if (prev === undefined || h.score > prev) best.set(h.docId, h.score);
  }
  return [...best.entries()]
    .sort((a, b) => (b[1] !== a[1] ? b[1] - a[1] : a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0))
    .map(([id]) => id);
}

function gain(qrels: QueryQrels, docId: string): number {
  const rel = qrels.get(docId);
  return rel !== undefined && rel > 0 ? rel : 0;
}

export function countRelevant(qrels: QueryQrels): number {
  let n = 0;
  for (const rel of qrels.values()) if (rel > 0) n++;
  return n;
}

export function dcgAtK(ranked: readonly string[], qrels: QueryQrels, k: number): number {
  const list = dedupeRanking(ranked);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, list.length); i++) dcg += gain(qrels, list[i]) / Math.log2(i + 2);
  return dcg;
}

export function idealDcgAtK(qrels: QueryQrels, k: number): number {
  const gains = [...qrels.values()].filter((r) => r > 0).sort((a, b) => b - a);
  let dcg = 0;
  for (let i = 0; i < Math.min(k, gains.length); i++) dcg += gains[i] / Math.log2(i + 2);
  return dcg;
}

/** nDCG@k; 0 when the query has no relevant doc (callers normally exclude such queries). */
export function ndcgAtK(ranked: readonly string[], qrels: QueryQrels, k: number): number {
  const ideal = idealDcgAtK(qrels, k);
  return ideal > 0 ? dcgAtK(ranked, qrels, k) / ideal : 0;
}

export function recallAtK(ranked: readonly string[], qrels: QueryQrels, k: number): number {
  const nRel = countRelevant(qrels);
  if (nRel === 0) return 0;
  let hits = 0;
  for (const id of dedupeRanking(ranked).slice(0, k)) if (gain(qrels, id) > 0) hits++;
  return hits / nRel;
}

/** 1-based rank of the first relevant doc after dedupe, or null. */
export function firstRelevantRank(ranked: readonly string[], qrels: QueryQrels): number | null {
  const list = dedupeRanking(ranked);
  for (let i = 0; i < list.length; i++) if (gain(qrels, list[i]) > 0) return i + 1;
  return null;
}

/** Reciprocal rank; with `k`, a first relevant doc below rank k scores 0 (MRR@k). */
export function reciprocalRank(ranked: readonly string[], qrels: QueryQrels, k = Infinity): number {
  const r = firstRelevantRank(ranked, qrels);
  return r !== null && r <= k ? 1 / r : 0;
}

export function precisionAt1(ranked: readonly string[], qrels: QueryQrels): number {
  return ranked.length > 0 && gain(qrels, ranked[0]) > 0 ? 1 : 0;
}

export function successAtK(ranked: readonly string[], qrels: QueryQrels, k: number): number {
  return reciprocalRank(ranked, qrels, k) > 0 ? 1 : 0;
}

/** Metric names produced by `evaluateQuery` for these cutoffs, in output order. */
export function metricKeys(cutoffs: readonly number[]): string[] {
  const keys: string[] = [];
  for (const k of cutoffs) keys.push(`ndcg@${k}`, `recall@${k}`, `sr@${k}`, `mrr@${k}`);
  keys.push('mrr', 'p@1');
  return keys;
}

/** Every metric for one query at the given cutoffs. */
export function evaluateQuery(ranked: readonly string[], qrels: QueryQrels, cutoffs: readonly number[]): QueryMetrics {
  const list = dedupeRanking(ranked);
  const values: Record<string, number> = {};
  for (const k of cutoffs) {
    values[`ndcg@${k}`] = ndcgAtK(list, qrels, k);
    values[`recall@${k}`] = recallAtK(list, qrels, k);
    values[`sr@${k}`] = successAtK(list, qrels, k);
    values[`mrr@${k}`] = reciprocalRank(list, qrels, k);
  }
  values['mrr'] = reciprocalRank(list, qrels);
  values['p@1'] = precisionAt1(list, qrels);
  return { values, firstRelevantRank: firstRelevantRank(list, qrels), nRelevant: countRelevant(qrels) };
}

export interface RunMetrics {
  /** Mean of every per-query metric over the evaluated queries. */
  metrics: Record<string, number>;
  perQuery: Map<string, QueryMetrics>;
  /** Queries that had qrels with at least one relevant doc and were averaged. */
  nEvaluated: number;
  /**
   * Query ids excluded from the averages because they have no doc with relevance > 0 (same as trec_eval,
   * which only scores queries present in the qrels with relevant docs).
   */
  excludedNoRelevant: string[];
}

/**
 * Evaluate a whole run. Every query of `run` and of `qrels` is considered; a query with relevant docs but no
 * ranking counts as an empty ranking (scores 0), which is stricter than pytrec_eval (it skips queries absent from
 * the run) and is what you want when the run comes from calling a search engine on every query.
 */
export function evaluateRun(
  run: ReadonlyMap<string, readonly string[]>,
  qrels: Qrels,
  cutoffs: readonly number[],
): RunMetrics {
  for (const k of cutoffs) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`cutoff must be a positive integer, got ${k}`);
  }
  const ids = new Set<string>([...qrels.keys(), ...run.keys()]);
  const perQuery = new Map<string, QueryMetrics>();
  const excludedNoRelevant: string[] = [];
  // Seed every key so the result has the same shape even when no query could be evaluated.
  const sums: Record<string, number> = {};
  for (const key of metricKeys(cutoffs)) sums[key] = 0;
  for (const qid of ids) {
    const q = qrels.get(qid) ?? new Map<string, number>();
    if (countRelevant(q) === 0) {
      excludedNoRelevant.push(qid);
      continue;
    }
    const m = evaluateQuery(run.get(qid) ?? [], q, cutoffs);
    perQuery.set(qid, m);
    for (const [key, v] of Object.entries(m.values)) sums[key] = (sums[key] ?? 0) + v;
  }
  const n = perQuery.size;
  const metrics: Record<string, number> = {};
  for (const [key, s] of Object.entries(sums)) metrics[key] = n > 0 ? s / n : 0;
  return { metrics, perQuery, nEvaluated: n, excludedNoRelevant };
}
