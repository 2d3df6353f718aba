/**
 * What a document reader is given (document-reader.ts, read-content.ts): untrusted content already in
 * memory, with its kind and where it came from. Types only, so that load-document.ts can take a reader
 * without importing the reader's implementation.
 */
import type { DocumentKind } from '../audit/types.js';
import type { PdfReadOptions } from '../corpus/pdf-text.js';
import type { PageKind } from '../sources/page-text.js';

export interface ArticleContent {
  kind: Exclude<DocumentKind, 'kilt'>;
  content: string | Uint8Array;
  /** Where it came from, for the report ("api:wikitext", a file path, a URL). */
  origin: string;
  title?: string;
  contextSentences?: number;
  maxCitations?: number;
  baseUrl?: string;
  pdf?: PdfLimitOptions;
}

export type PdfLimitOptions = Pick<PdfReadOptions, 'maxInflatedBytes' | 'maxTextChars'>;

export interface PageContent {
  body: string;
  kind: PageKind;
  url: string;
  title?: string;
}

export interface PdfContent {
  bytes: Uint8Array;
  url: string;
  title?: string;
  pdf?: PdfLimitOptions;
}
