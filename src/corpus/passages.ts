/**
 * Document -> ~100-word passages, the unit the store indexes and retrieval scores. Passages follow
 * sentence boundaries so evidence found in a passage maps back to sentence ids: consecutive sentences are
 * packed greedily up to `maxWords`; a sentence is never split, so one longer than `maxWords` is a passage
 * of its own. Empty sentences (FEVER's empty lines) take no room and join the passage in progress, so
 * every sentence index still lands in exactly one passage.
 *
 * On the ingest hot path: one pass over the sentences, words counted without regexes or allocation.
 */
import type { Document, Passage } from './types.js';
import { isSpaceCode } from './whitespace.js';

export interface ChunkOptions {
  /** Passage size limit in words (default 100). */
  maxWords?: number;
}

export function chunkPassages(doc: Document, opts: ChunkOptions = {}): Passage[] {
  const maxWords = opts.maxWords ?? 100;
  if (!(maxWords >= 1)) throw new RangeError(`maxWords must be at least 1, got ${maxWords}`);
  const sentences = doc.sentences;
  const passages: Passage[] = [];
  let start = 0;
  let words = 0;
  for (let i = 0; i < sentences.length; i++) {
    const w = countWords(sentences[i]!);
    // Close the passage in progress if this sentence would overflow it (an empty one never does).
    if (w > 0 && words > 0 && words + w > maxWords) {
      passages.push(makePassage(doc, passages.length, start, i));
      start = i;
      words = 0;
    }
    words += w;
  }
  if (start < sentences.length) passages.push(makePassage(doc, passages.length, start, sentences.length));
  return passages;
}

function makePassage(doc: Document, index: number, sentenceStart: number, sentenceEnd: number): Passage {
  let text = doc.sentences[sentenceStart]!;
  for (let i = sentenceStart + 1; i < sentenceEnd; i++) text += ' ' + doc.sentences[i]!;
  return { id: `${doc.id}#${index}`, docId: doc.id, title: doc.title, index, sentenceStart, sentenceEnd, text };
}

/** Number of whitespace-separated tokens in `text` (same as `text.split(/\s+/).filter(Boolean).length`). */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpaceCode(text.charCodeAt(i))) inWord = false;
    else if (!inWord) {
      inWord = true;
      n++;
    }
  }
  return n;
}
