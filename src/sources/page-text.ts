/**
 * A page body (fetched, cached or from a snapshot file) -> a Document with sentences, the unit scoring
 * reads. HTML goes through the corpus' main-text extraction (Readability), so navigation and footers do
 * not become "evidence".
 */
import { createHash } from 'node:crypto';
import { htmlToText } from '../corpus/html-text.js';
import { markdownToText } from '../corpus/markdown-text.js';
import { readPdf, type PdfReadOptions } from '../corpus/pdf-text.js';
import { PdfLimitError } from '../corpus/pdf-limits.js';
import { prepareDocument } from '../corpus/prepare.js';
import type { Document, RawDocument } from '../corpus/types.js';
import { normalizeUrl } from '../store/url.js';

/** How a page's text is read. */
export const PAGE_KINDS = ['html', 'text', 'markdown'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** Short stable key of a URL (after normalisation): names snapshot files and cache entries. */
export function urlKey(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 24);
}

export function pageToDocument(body: string, kind: PageKind, url: string, fallbackTitle?: string): Document {
  let raw: RawDocument;
  if (kind === 'html') {
    const page = htmlToText(body);
    raw = { id: `url:${urlKey(url)}`, title: page.title || fallbackTitle || url, text: page.text };
  } else if (kind === 'markdown') {
    const md = markdownToText(body);
    raw = { id: `url:${urlKey(url)}`, title: md.title || fallbackTitle || url, text: md.text };
  } else {
    raw = { id: `url:${urlKey(url)}`, title: fallbackTitle || url, text: body };
  }
  raw.url = url;
  return prepareDocument(raw);
}

/**
 * A PDF (fetched or saved) -> a Document whose sentences keep their pages (`sentencePages`). A PDF
 * without a text layer, encrypted or damaged gives `{ok: false}`: the source is unreadable, not empty; one
 * over a limit (corpus/pdf-limits.ts) gives `{ok: false, limit: true}`.
 */
export async function pdfToDocument(
  bytes: Uint8Array,
  url: string,
  fallbackTitle?: string,
  limits: Pick<PdfReadOptions, 'maxInflatedBytes' | 'maxTextChars'> = {},
): Promise<{ ok: true; document: Document } | { ok: false; reason: string; limit?: boolean }> {
  let pdf: Awaited<ReturnType<typeof readPdf>>;
  try {
    pdf = await readPdf(bytes, limits);
  } catch (e) {
    // over a limit (a decompression bomb, too much text): unreadable here, and said to be too large
    if (e instanceof PdfLimitError) return { ok: false, reason: e.message, limit: true };
    throw e;
  }
  if (!pdf.ok) return pdf;
  const document = prepareDocument({ id: `url:${urlKey(url)}`, title: pdf.title || fallbackTitle || url, url, pages: pdf.pages });
  if (!document.sentences.length) return { ok: false, reason: 'no text could be extracted from the PDF' };
  return { ok: true, document };
}
