/**
 * A document's sentences as shown next to a claim: every sentence when the document is short, else the
 * evidence sentences with one sentence of context on each side (a source page can be thousands of
 * sentences; the editor needs the part that matters).
 */
import type { Document } from '../corpus/types.js';
import type { SourceSentence, SourceView } from './audit-service.js';

const SHOW_ALL_BELOW = 12;
const CONTEXT = 1;

/** `evidence`: the document's evidence sentences, by index. */
export function sourceView(doc: Document, evidence: readonly { sentenceIndex: number; score: number }[]): SourceView {
  const scores = new Map(evidence.map((e) => [e.sentenceIndex, e.score]));
  const keep = new Set<number>();
  if (doc.sentences.length <= SHOW_ALL_BELOW || scores.size === 0) {
    doc.sentences.slice(0, SHOW_ALL_BELOW).forEach((_, i) => keep.add(i));
  } else {
    for (const i of scores.keys()) for (let j = i - CONTEXT; j <= i + CONTEXT; j++) if (j >= 0 && j < doc.sentences.length) keep.add(j);
  }
  const sentences: SourceSentence[] = [...keep]
    .sort((a, b) => a - b)
    .filter((i) => doc.sentences[i]?.trim())
    .map((i) => {
      const s: SourceSentence = { index: i, text: doc.sentences[i]!, evidence: scores.has(i) };
      if (scores.has(i)) s.score = scores.get(i)!;
      return s;
    });
  const view: SourceView = { docId: doc.id, title: doc.title, sentences };
  if (doc.url) view.url = doc.url;
  return view;
}
