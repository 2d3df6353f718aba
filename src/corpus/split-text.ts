/** Free text -> clean sentences: paragraphs first (wrapped lines joined), then wink-nlp sentences, whitespace collapsed. */
import { splitParagraphs } from './paragraphs.js';
import { splitSentences } from './sentences.js';

export function splitText(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of splitParagraphs(text)) {
    for (const s of splitSentences(paragraph)) {
      const clean = collapseWhitespace(s);
      if (clean) out.push(clean);
    }
  }
  return out;
}

const MESSY_SPACE = /[^\S ]| {2}|^ | $/;

export function collapseWhitespace(s: string): string {
  return MESSY_SPACE.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
}
