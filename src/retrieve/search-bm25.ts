/**
 * BM25 search: passages from the store's full-text index, grouped into documents.
 */
import type { Store } from '../store/types.js';
import { groupByDocument } from './group-documents.js';
import type { SearchResult } from './types.js';

export interface SearchOptions {
  /** Documents wanted. */
  k: number;
  /** Passages fetched to rank k documents (documents have several passages); default max(100, 3k). */
  passageDepth?: number;
}

export async function searchBm25(store: Store, query: string, opts: SearchOptions): Promise<SearchResult> {
  const t = performance.now();
  const depth = opts.passageDepth ?? Math.max(100, 3 * opts.k);
  const hits = await store.searchText(query, depth);
  const passages = hits.map((h, i) => ({ passage: h.passage, score: h.score, rank: i + 1 }));
  const documents = groupByDocument(passages).slice(0, opts.k);
  return {
    query,
    mode: 'bm25',
    passages: passages.slice(0, Math.max(opts.k, 10)),
    documents,
    snapshot: await store.snapshot(),
    tookMs: performance.now() - t,
  };
}
