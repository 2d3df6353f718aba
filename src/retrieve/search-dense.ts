/**
 * Dense search: embed the query with the same embedder that embedded the passages, then cosine
 * nearest neighbours from the store.
 */
import type { Embedder } from '../models/types.js';
import type { Store } from '../store/types.js';
import { SettingsError } from '../util/settings-error.js';
import type { RankedPassage } from './types.js';

export async function densePassages(store: Store, embedder: Embedder, query: string, k: number): Promise<RankedPassage[]> {
  const dim = await store.vectorDimension();
  if (dim === undefined) throw new SettingsError('retrieval.mode', 'dense and hybrid search need an index with vectors; this one has none (index it again with dense vectors) or search with bm25');
  if (dim !== embedder.dimension) throw new SettingsError('models.embedder', `index vectors are ${dim}-d but the embedder ${embedder.info.id} gives ${embedder.dimension}-d: use the embedder the index was built with`);
  const [vector] = await embedder.embed([query]);
  const hits = await store.searchVector(vector!, k);
  return hits.map((h, i) => ({ passage: h.passage, score: h.score, rank: i + 1 }));
}
