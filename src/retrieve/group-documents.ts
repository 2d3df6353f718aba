/**
 * Passage hits -> document ranking. A document's score is its best passage's score (SIDE's max
 * aggregation), so a long document is not favoured for having many mediocre passages.
 */
import type { RankedDocument, RankedPassage } from './types.js';

export function groupByDocument(passages: RankedPassage[]): RankedDocument[] {
  const docs = new Map<string, RankedDocument>();
  for (const p of passages) {
    const existing = docs.get(p.passage.docId);
    if (existing) {
      existing.passages.push(p);
      if (p.score > existing.score) existing.score = p.score;
    } else {
      docs.set(p.passage.docId, { docId: p.passage.docId, title: p.passage.title, score: p.score, rank: 0, passages: [p] });
    }
  }
  const ranked = [...docs.values()].sort((a, b) => b.score - a.score || a.docId.localeCompare(b.docId));
  ranked.forEach((d, i) => {
    d.rank = i + 1;
    d.passages.sort((a, b) => b.score - a.score);
  });
  return ranked;
}
