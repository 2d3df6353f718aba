/** The audit's candidate retrieval, apart from the audit's assembly (audit.ts) so that opening the pipeline loads no audit code. */
import { Retriever, type SearchMode } from '../retrieve/retriever.js';
import type { Store } from '../store/types.js';
import type { ModelHub } from './models.js';
import type { Settings } from './settings.js';

/** SIDE's candidate retrieval: BM25 and dense lists of `retrieval.depth` passages, combined by `audit.fusion` (union). */
export function candidateRetriever(settings: Settings, models: ModelHub, store: Store, mode: SearchMode): Retriever {
  return new Retriever(store, () => models.embedder(), { mode, fusion: { method: settings.audit.fusion }, sparseK: settings.retrieval.depth, denseK: settings.retrieval.depth });
}
