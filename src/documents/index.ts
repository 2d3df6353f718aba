/**
 * Documents with citations beyond Wikipedia: Markdown and HTML reports, blog posts, plain text and PDFs,
 * read into the citations an audit checks (same shape as Wikipedia's: whole-sentence claims, context,
 * section path, source with URL and DOI / arXiv / PubMed ids).
 */
export type * from './types.js';
export { parseMarkdownDocument } from './markdown.js';
export { parseHtmlDocument } from './html.js';
export { parsePlainTextDocument } from './plain-text.js';
export { loadDocumentInput, noCitationsReason, parseDocument, detectFormat, documentToAuditInput, isWikipediaHtml, isWikitext, INPUT_FORMATS, type InputFormat, type DocumentInputOptions } from './load-document.js';
export { workerDocumentReader, inThreadDocumentReader, DEFAULT_PARSE_BUDGET, type DocumentReader, type ParseBudget } from './document-reader.js';
