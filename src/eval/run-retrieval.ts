/**
 * Runs a retrieval evaluation with an injected search function, so the same harness measures BM25, dense or
 * hybrid engines without knowing any of them.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkQrelDocs, type EvalQuery } from './retrieval-data.js';
import type { DocIdLookup } from './doc-ids.js';
import { dedupeRanking, evaluateRun, sortLikeTrecEval, type Qrels } from './retrieval-metrics.js';

export interface SearchHit {
  docId: string;
  score: number;
}

export type SearchFn = (q: EvalQuery, k: number) => Promise<SearchHit[]>;

export interface RetrievalEvalOptions {
  name: string;
  queries: readonly EvalQuery[];
  qrels: Qrels;
  search: SearchFn;
  /** Retrieval depth handed to `search` (e.g. 100); rankings are cut here after dedupe. */
  k: number;
  /** Metric cutoffs, each <= k (e.g. [1, 5, 10, 100]). */
  cutoffs: readonly number[];
  /** Queries in flight at once; 1 (default) keeps timings comparable between engines. */
  concurrency?: number;
  /**
   * 'given' (default) scores hits in the order `search` returns them; 'trec_eval' re-sorts by score with
   * trec_eval's tie-break (doc id descending), to reproduce pytrec_eval/BEIR numbers exactly.
   */
  order?: 'given' | 'trec_eval';
  /**
   * When given, every relevant document of the searched queries must exist (e.g. `storeDocIds(store)`):
   * checked before the first search, listing every missing id.
   */
  docIds?: DocIdLookup;
  /** The queries file, for the error message. */
  data?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface PerQueryResult {
  queryId: string;
  /** 1-based rank of the first relevant doc within depth k, null when none was retrieved (or no relevant doc). */
  firstRelevantRank: number | null;
  nRelevant: number;
  nRetrieved: number;
  /** Seconds spent in `search` for this query. */
  seconds: number;
}

export interface RetrievalEvalResult {
  task: string;
  /** Queries searched. */
  nQueries: number;
  /** Queries averaged (they have at least one doc with relevance > 0). */
  nEvaluated: number;
  /** Searched queries left out of the averages because their qrels hold no relevant doc. */
  excludedNoRelevant: string[];
  k: number;
  cutoffs: number[];
  /** "ndcg@c", "recall@c", "sr@c", "mrr@c" for each cutoff, plus "mrr" (over depth k) and "p@1". */
  metrics: Record<string, number>;
  perQuery: PerQueryResult[];
  timing: { totalSeconds: number; queriesPerSecond: number };
  createdAt: string;
}

export async function runRetrievalEval(opts: RetrievalEvalOptions): Promise<RetrievalEvalResult> {
  const { queries, qrels, search, k } = opts;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  const cutoffs = [...opts.cutoffs];
  for (const c of cutoffs) {
    if (!Number.isInteger(c) || c < 1 || c > k) {
      throw new RangeError(`cutoff ${c} must be a positive integer <= k (${k}): deeper cutoffs would read truncated lists`);
    }
  }
  const seen = new Set<string>();
  for (const q of queries) {
    if (seen.has(q.id)) throw new Error(`duplicate query id "${q.id}"`);
    seen.add(q.id);
  }
  if (opts.docIds) await checkQrelDocs({ name: opts.name, queries, qrels }, opts.docIds, 'the index', opts.data ?? opts.name);
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));

  const rankings = new Map<string, string[]>();
  const seconds = new Map<string, number>();
  const started = performance.now();
  let next = 0;
  let done = 0;
  // After one failure the other workers stop taking queries instead of searching on for nothing.
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < queries.length) {
      const q = queries[next++];
      const t0 = performance.now();
      let hits: SearchHit[];
      try {
        hits = await search(q, k);
      } catch (e) {
        failed = true;
        throw new Error(`search failed for query "${q.id}": ${(e as Error).message}`, { cause: e });
      }
      seconds.set(q.id, (performance.now() - t0) / 1000);
      const ranked = opts.order === 'trec_eval' ? sortLikeTrecEval(hits) : dedupeRanking(hits.map((h) => h.docId));
      rankings.set(q.id, ranked.slice(0, k));
      opts.onProgress?.(++done, queries.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, queries.length)) }, worker));
  const totalSeconds = (performance.now() - started) / 1000;

  // Only the searched queries are scored: qrels for queries outside `queries` are ignored, not counted as misses.
  const searchedQrels = new Map<string, ReadonlyMap<string, number>>();
  for (const q of queries) {
    const m = qrels.get(q.id);
    if (m) searchedQrels.set(q.id, m);
  }
  const run = evaluateRun(rankings, searchedQrels, cutoffs);

  const perQuery: PerQueryResult[] = queries.map((q) => {
    const m = run.perQuery.get(q.id);
    return {
      queryId: q.id,
      firstRelevantRank: m?.firstRelevantRank ?? null,
      nRelevant: m?.nRelevant ?? 0,
      nRetrieved: rankings.get(q.id)?.length ?? 0,
      seconds: seconds.get(q.id) ?? 0,
    };
  });
  return {
    task: opts.name,
    nQueries: queries.length,
    nEvaluated: run.nEvaluated,
    excludedNoRelevant: run.excludedNoRelevant,
    k,
    cutoffs,
    metrics: run.metrics,
    perQuery,
    timing: { totalSeconds, queriesPerSecond: totalSeconds > 0 ? queries.length / totalSeconds : 0 },
    createdAt: new Date().toISOString(),
  };
}

/** Write the result as pretty JSON, creating parent folders. */
export async function saveResult(result: RetrievalEvalResult, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(result, null, 2) + '\n', 'utf8');
}
