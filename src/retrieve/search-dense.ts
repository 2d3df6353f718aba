/**
 * Dense search: embed the query with the same embedder that embedded the passages, then cosine
 * nearest neighbours from the store.
 */
import type { Embedder } from '../models/types.js';
import type { Store } from '../store/types.js';
import type { RankedPassage } from './types.js';

export async function densePassages(store: Store, embedder: Embedder, query: string, k: number): Promise<RankedPassage[]> {
  const dim = await store.vectorDimension();
  if (dim === undefined) throw new Error('this index has no vectors: build it with "veracite index --dense" to use dense or hybrid search');
  if (dim !== embedder.dimension) throw new Error(`index vectors are ${dim}-d but the embedder ${embedder.info.id} gives ${embedder.dimension}-d`);
  const [vector] = await embedder.embed([query]);
  const hits = await store.searchVector(vector!, k);
  return hits.map((h, i) => ({ passage: h.passage, score: h.score, rank: i + 1 }));
}
