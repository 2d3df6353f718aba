/**
 * Candidate documents for a claim: hybrid (or BM25/dense) passage retrieval grouped into documents,
 * united with documents whose title matches an entity mention of the claim (ColumbiaNLP). Title matches
 * come first: when a claim names its subject, that page is almost always where the evidence is.
 */
import type { Retriever } from '../retrieve/retriever.js';
import { titleKey } from '../store/title-key.js';
import type { Store } from '../store/types.js';
import { extractMentions } from './mentions.js';
import type { CandidateDocument } from './types.js';
import { DEFAULT_DOCUMENT_RETRIEVAL, type DocumentRetrievalConfig } from './document-retrieval-config.js';

// Defined in document-retrieval-config.ts (light: the settings read the defaults).
export { DEFAULT_DOCUMENT_RETRIEVAL, type DocumentRetrievalConfig };

/** Title matches ranked: longer mentions first; an unqualified title before "X (film)", unless the
 * claim uses the qualifier's words ("the film Soul Food" -> "Soul Food (film)"). */
export async function titleMatches(store: Store, claim: string, limit: number): Promise<{ id: string; title: string }[]> {
  const mentions = extractMentions(claim);
  const order = new Map<string, number>();
  mentions.forEach((m, i) => {
    const k = titleKey(m.text);
    if (k && !order.has(k)) order.set(k, i);
  });
  if (order.size === 0) return [];
  const claimWords = new Set(claim.toLowerCase().match(/\p{L}+/gu) ?? []);
  const hits = await store.findTitles([...order.keys()]);
  const rankOf = (h: { title: string; key: string }) => {
    const qualifier = /\(([^()]*)\)\s*$/.exec(h.title)?.[1];
    const qualifierBonus = !qualifier ? 0 : (qualifier.toLowerCase().match(/\p{L}+/gu) ?? []).some((w) => claimWords.has(w)) ? -0.5 : 0.5;
    return order.get(h.key)! + qualifierBonus;
  };
  return hits.sort((a, b) => rankOf(a) - rankOf(b) || a.title.localeCompare(b.title)).slice(0, limit);
}

export async function retrieveDocuments(store: Store, retriever: Retriever, claim: string, cfg: DocumentRetrievalConfig, signal?: AbortSignal): Promise<CandidateDocument[]> {
  const [retrieved, titled] = await Promise.all([
    retriever.search(claim, { k: cfg.retrievalDocs, mode: cfg.mode, ...(signal ? { signal } : {}) }),
    cfg.titleMatch ? titleMatches(store, claim, cfg.titleDocs) : Promise.resolve([]),
  ]);
  const out = new Map<string, CandidateDocument>();
  for (const t of titled) out.set(t.id, { docId: t.id, title: t.title, score: 0, via: ['title'] });
  for (const d of retrieved.documents) {
    const existing = out.get(d.docId);
    if (existing) {
      existing.score = d.score;
      existing.via.push('retrieval');
    } else out.set(d.docId, { docId: d.docId, title: d.title, score: d.score, via: ['retrieval'] });
  }
  return [...out.values()].slice(0, cfg.maxDocs);
}
