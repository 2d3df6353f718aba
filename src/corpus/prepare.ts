/**
 * RawDocument -> Document with a fixed sentence list. A sentence list given by the source is kept exactly
 * (same strings, same length: sentence ids are positions and evaluation data points at them, FEVER's
 * empty lines included). Unsplit text is cut into paragraphs, then sentences; there whitespace is
 * collapsed and empty sentences are dropped, since no id refers to them yet. For the same reason a
 * "sentence" of more than MAX_SENTENCE_WORDS words (a list or a page without punctuation; a 50 MB text
 * with no full stop) is cut at word boundaries into balanced sentences: sentence-level evidence then stays
 * a readable size, and the sentence ids assigned here are the ones stored.
 */
import { countWords, splitWords } from './passages.js';
import { splitParagraphs } from './paragraphs.js';
import { splitSentences } from './sentences.js';
import type { Document, RawDocument } from './types.js';

export function prepareDocument(raw: RawDocument): Document {
  const doc: Document = {
    id: raw.id,
    title: collapseWhitespace(raw.title),
    sentences: raw.sentences ?? splitText(raw.text ?? ''),
  };
  if (raw.url !== undefined) doc.url = raw.url;
  if (raw.links !== undefined) doc.links = raw.links;
  return doc;
}

/** Longest sentence kept whole when splitting unsplit text: above every real one (the longest of the 44,691
 * sentences this splitter finds in SciFact's abstracts has 195 words). */
export const MAX_SENTENCE_WORDS = 200;

export function splitText(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of splitParagraphs(text)) {
    for (const s of splitSentences(paragraph)) {
      const clean = collapseWhitespace(s);
      if (!clean) continue;
      // Cheap test first: a sentence this short in characters cannot hold too many words.
      const words = clean.length > MAX_SENTENCE_WORDS * 2 ? countWords(clean) : 0;
      if (words > MAX_SENTENCE_WORDS) out.push(...splitWords(clean, words, MAX_SENTENCE_WORDS));
      else out.push(clean);
    }
  }
  return out;
}

const MESSY_SPACE = /[^\S ]| {2}|^ | $/;

export function collapseWhitespace(s: string): string {
  return MESSY_SPACE.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
}
