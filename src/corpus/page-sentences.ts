/**
 * Paged text (a PDF) -> sentences, each with the page it starts on. The pages are joined before
 * splitting, with a line break between them, so a sentence running over a page break stays one sentence
 * (`splitParagraphs` joins a wrapped line when it continues the sentence) and gets its first page.
 *
 * The page of a sentence is found by position: sentences come out of the splitter in order, and with
 * whitespace collapsed each is a substring of the whole text (collapsed the same way), so one forward
 * scan finds where each starts and which page holds that offset.
 */
import { collapseWhitespace, splitText } from './split-text.js';

export interface PagedSentences {
  sentences: string[];
  /** 1-based page of each sentence (parallel to `sentences`). */
  pages: number[];
}

export function splitPages(pages: readonly string[]): PagedSentences {
  const sentences = splitText(pages.join('\n'));
  // The collapsed whole text and where each page starts in it.
  let whole = '';
  const starts: number[] = [];
  for (const p of pages) {
    const c = collapseWhitespace(p.replace(/\s+/g, ' '));
    if (whole && c) whole += ' ';
    starts.push(whole.length);
    whole += c;
  }
  const out: number[] = [];
  let cursor = 0;
  let page = 0; // index into starts
  for (const s of sentences) {
    const at = whole.indexOf(s, cursor);
    if (at >= 0) {
      while (page + 1 < starts.length && starts[page + 1]! <= at) page++;
      cursor = at + s.length;
    }
    // Not found cannot happen with the splitter (it only trims and collapses); keep the last page then.
    out.push(page + 1);
  }
  return { sentences, pages: out };
}
