/**
 * Free text -> clean sentences: paragraphs first (wrapped lines joined), then wink-nlp sentences, whitespace
 * collapsed. A "sentence" of more than MAX_SENTENCE_WORDS words (a list or a page without punctuation; a
 * 50 MB text with no full stop) is cut at word boundaries into balanced sentences: sentence-level evidence
 * then stays a readable size, and the sentence ids assigned from this list are the ones stored.
 */
import { countWords, splitWords } from './passages.js';
import { splitParagraphs } from './paragraphs.js';
import { splitSentences } from './sentences.js';

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
