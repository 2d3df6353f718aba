/**
 * Untrusted content already in memory (a request body, a fetched page, an uploaded file) -> what the audit
 * and the check read. These are the functions a parse worker runs (parse-worker.ts); DocumentReader
 * (document-reader.ts) runs them in a worker pool with budgets, or on the calling thread for a library
 * user who wants no threads.
 */
import { fromArticle } from '../audit/article-input.js';
import type { AuditInput, DocumentKind } from '../audit/types.js';
import type { PdfReadOptions } from '../corpus/pdf-text.js';
import type { Document } from '../corpus/types.js';
import { pageToDocument, pdfToDocument, type PageKind } from '../sources/page-text.js';
import { parseWikipediaHtml, parseWikitext } from '../wiki/index.js';
import { documentToAuditInput, parseDocument } from './load-document.js';

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

/** An article or document of any kind but KILT -> AuditInput. */
export async function readArticleContent(a: ArticleContent): Promise<AuditInput> {
  const parseOpts = { ...(a.contextSentences !== undefined ? { contextSentences: a.contextSentences } : {}) };
  if (a.kind === 'wikipedia-wikitext' || a.kind === 'wikipedia-html') {
    const text = typeof a.content === 'string' ? a.content : new TextDecoder().decode(a.content);
    const opts = { title: a.title ?? '', ...parseOpts, ...(a.maxCitations !== undefined ? { maxCitations: a.maxCitations } : {}) };
    const article = a.kind === 'wikipedia-html' ? parseWikipediaHtml(text, opts) : parseWikitext(text, opts);
    return { ...fromArticle(article, a.origin, a.kind === 'wikipedia-html' ? 'html' : 'wikitext'), kind: a.kind };
  }
  const doc = await parseDocument(a.content, a.kind, { ...parseOpts, ...(a.title ? { title: a.title } : {}), ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}), ...(a.pdf ? { pdf: a.pdf } : {}) });
  const read = documentToAuditInput(doc, a.origin);
  if (a.maxCitations !== undefined && read.citations.length > a.maxCitations) read.citations = read.citations.slice(0, a.maxCitations);
  return read;
}

export interface PageContent {
  body: string;
  kind: PageKind;
  url: string;
  title?: string;
}

export function readPageContent(p: PageContent): Document {
  return pageToDocument(p.body, p.kind, p.url, p.title);
}

export interface PdfContent {
  bytes: Uint8Array;
  url: string;
  title?: string;
  pdf?: PdfLimitOptions;
}

export function readPdfContent(p: PdfContent): ReturnType<typeof pdfToDocument> {
  return pdfToDocument(p.bytes, p.url, p.title, p.pdf);
}
