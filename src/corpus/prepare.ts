/**
 * RawDocument -> Document with a fixed sentence list. A sentence list given by the source is kept exactly
 * (same strings, same length: sentence ids are positions and evaluation data points at them, FEVER's
 * empty lines included). Unsplit text is cut into paragraphs, then sentences; there whitespace is
 * collapsed and empty sentences are dropped, since no id refers to them yet. For the same reason a
 * "sentence" of more than MAX_SENTENCE_WORDS words is cut into balanced sentences (split-text.ts).
 */
import { splitPages } from './page-sentences.js';
import { collapseWhitespace, splitText } from './split-text.js';
import type { Document, RawDocument } from './types.js';

export function prepareDocument(raw: RawDocument): Document {
  const paged = !raw.sentences && raw.pages ? splitPages(raw.pages) : undefined;
  const doc: Document = {
    id: raw.id,
    title: collapseWhitespace(raw.title),
    sentences: raw.sentences ?? paged?.sentences ?? splitText(raw.text ?? ''),
  };
  if (paged) doc.sentencePages = paged.pages;
  if (raw.url !== undefined) doc.url = raw.url;
  if (raw.links !== undefined) doc.links = raw.links;
  return doc;
}
