/**
 * Untrusted content already in memory (a request body, a fetched page, an uploaded file) -> what the audit
 * and the check read. These are the functions a parse worker runs (parse-worker.ts); DocumentReader
 * (document-reader.ts) runs them in a worker pool with budgets, or on the calling thread for a library
 * user who wants no threads.
 */
import { fromArticle } from '../audit/article-input.js';
import type { AuditInput } from '../audit/types.js';
import type { Document } from '../corpus/types.js';
import { pageToDocument, pdfToDocument } from '../sources/page-text.js';
import { parseWikipediaHtml, parseWikitext } from '../wiki/index.js';
import { documentToAuditInput, parseDocument } from './load-document.js';
import type { ArticleContent, PageContent, PdfContent } from './content-types.js';

export type { ArticleContent, PageContent, PdfContent, PdfLimitOptions } from './content-types.js';

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


export function readPageContent(p: PageContent): Document {
  return pageToDocument(p.body, p.kind, p.url, p.title);
}


export function readPdfContent(p: PdfContent): ReturnType<typeof pdfToDocument> {
  return pdfToDocument(p.bytes, p.url, p.title, p.pdf);
}
