/**
 * How closely a page words the claim: the TF-IDF cosine of the claim to the page's closest ~100-word
 * passage, with IDF over that page's own passages (so the words the whole page is about weigh little and
 * the claim's particular words weigh much). The TF-IDF baseline of WiCE detection (docs/RESULTS-HISTORY.md: not
 * supported ROC AUC 0.865 alone, more than the trained signals), and the second input of the audit's
 * support signal (support-signal.ts). Needs no index and no model.
 */
import { chunkPassages } from '../corpus/passages.js';
import type { Document } from '../corpus/types.js';
import { tfidfRank } from '../text/tfidf.js';

/** Passage size in words: the audit's scoring unit and the baseline's. */
export const SIMILARITY_PASSAGE_WORDS = 100;

/** In [0, 1]; 0 for a page without text. */
export function pageSimilarity(claim: string, doc: Document, maxWords = SIMILARITY_PASSAGE_WORDS): number {
  const passages = chunkPassages(doc, { maxWords }).map((p) => p.text);
  return passages.length ? Math.max(0, ...tfidfRank(claim, passages)) : 0;
}
