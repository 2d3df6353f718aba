/**
 * Document -> passages of at most `maxWords` words, the unit the store indexes and retrieval scores.
 * Passages follow sentence boundaries so evidence found in a passage maps back to sentence ids:
 * consecutive sentences are packed greedily up to `maxWords`. Empty sentences (FEVER's empty lines) take
 * no room and join the passage in progress, so every sentence index lands in a passage.
 *
 * A sentence longer than `maxWords` (a run-on list, a page without punctuation, a 50 MB "sentence") is
 * split at word boundaries into ceil(words / maxWords) consecutive pieces of balanced size (they differ by
 * at most one word), each a passage of its own. Every piece passage covers the same sentence range
 * [i, i + 1), so evidence found in any piece maps back to sentence i: sentence ids never change, only the
 * passage text is a part of the sentence. A piece's text is the original text from its first word to its
 * last. Empty sentences just before a long sentence join its first piece, those just after its last.
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
  // Set while the passage in progress is the last piece of a long sentence: text so far, and that sentence.
  let tail: { text: string; sentence: number } | undefined;
  const close = (end: number) => {
    passages.push(tail ? piecePassage(doc, passages.length, tail.sentence, tail.sentence, end, tail.text) : makePassage(doc, passages.length, start, end));
    tail = undefined;
  };
  for (let i = 0; i < sentences.length; i++) {
    const w = countWords(sentences[i]!);
    // Close the passage in progress if this sentence would overflow it (an empty one never does), or if it
    // holds a piece of a long sentence (pieces are passages of their own).
    if (w > 0 && words > 0 && (words + w > maxWords || tail)) {
      close(i);
      start = i;
      words = 0;
    }
    if (w <= maxWords) {
      words += w;
      continue;
    }
    const pieces = splitWords(sentences[i]!, w, maxWords);
    // Empty sentences waiting in [start, i) join the first piece.
    let lead = start < i ? sentences.slice(start, i).join(' ') + ' ' : '';
    for (let k = 0; k < pieces.length - 1; k++) {
      passages.push(piecePassage(doc, passages.length, k === 0 ? start : i, i, i + 1, lead + pieces[k]!));
      lead = '';
    }
    // (There are always at least two pieces; the last one carries no empty sentences before it.)
    tail = { text: pieces[pieces.length - 1]!, sentence: i };
    start = i + 1;
    words = Math.floor(w / pieces.length); // the last piece is one of the smaller ones
  }
  if (tail) close(sentences.length);
  else if (start < sentences.length) passages.push(makePassage(doc, passages.length, start, sentences.length));
  return passages;
}

function makePassage(doc: Document, index: number, sentenceStart: number, sentenceEnd: number): Passage {
  let text = doc.sentences[sentenceStart]!;
  for (let i = sentenceStart + 1; i < sentenceEnd; i++) text += ' ' + doc.sentences[i]!;
  return { id: `${doc.id}#${index}`, docId: doc.id, title: doc.title, index, sentenceStart, sentenceEnd, text };
}

/**
 * A passage holding a piece of long sentence `own`: `piece` already starts with any empty sentences
 * before it; the empty sentences after it, up to `sentenceEnd`, are joined by spaces.
 */
function piecePassage(doc: Document, index: number, sentenceStart: number, own: number, sentenceEnd: number, piece: string): Passage {
  let text = piece;
  for (let i = own + 1; i < sentenceEnd; i++) text += ' ' + doc.sentences[i]!;
  return { id: `${doc.id}#${index}`, docId: doc.id, title: doc.title, index, sentenceStart, sentenceEnd, text };
}

/**
 * `text` (holding `words` words) cut at word boundaries into ceil(words / max) pieces whose sizes differ
 * by at most one; each piece runs from its first word's first character to its last word's last.
 */
export function splitWords(text: string, words: number, max: number): string[] {
  const n = Math.ceil(words / max);
  const base = Math.floor(words / n);
  const extra = words % n;
  const out: string[] = [];
  let piece = 0;
  let inPiece = 0;
  let pieceStart = -1;
  let lastEnd = 0;
  let want = base + (extra > 0 ? 1 : 0);
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isSpaceCode(text.charCodeAt(i));
    if (!space && !inWord) {
      inWord = true;
      if (inPiece === 0) pieceStart = i;
    } else if (space && inWord) {
      inWord = false;
      lastEnd = i;
      if (++inPiece === want) {
        out.push(text.slice(pieceStart, lastEnd));
        piece++;
        inPiece = 0;
        want = base + (piece < extra ? 1 : 0);
      }
    }
  }
  return out;
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
