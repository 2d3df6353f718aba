/**
 * PDF -> text, page by page, with Mozilla's pdf.js (pdfjs-dist, legacy build: the one meant for Node).
 *
 * Memory stays bounded by one page: each page's text is read, reduced to lines, and the page's parsed
 * objects are released (`page.cleanup()`) before the next is opened. Only the file's bytes and the pages'
 * plain text are held for the whole document.
 *
 * A PDF without a text layer (a scan that was never OCR'd) gives no text: it is reported as unreadable,
 * with what to do about it, never handed on as an empty page (which the audit would then score as "not
 * supporting the claim").
 *
 * Layout: pdf.js gives text runs with positions. A run ending a line (`hasEOL`, or the next run lower on
 * the page) ends the line; a vertical gap larger than 1.8 line heights starts a new paragraph (blank line).
 * A word hyphenated across a line break ("verifi-" / "cation") is joined; running page numbers ("12",
 * "Page 3 of 9") are dropped. Lines are left for `splitParagraphs`, which joins wrapped prose.
 */
import { createRequire } from 'node:module';
import { checkPdfLimits, DEFAULT_PDF_MAX_INFLATED_BYTES, DEFAULT_PDF_MAX_TEXT_CHARS, PdfLimitError } from './pdf-limits.js';
import { dirname, join } from 'node:path';

export interface PdfText {
  /** From the document information dictionary, when it has one. */
  title?: string;
  /** Plain text of each page, pages[0] = page 1. */
  pages: string[];
  /** Pages in the file (more than `pages.length` when `maxPages` stopped the reading). */
  numPages: number;
}

export type PdfReadResult = ({ ok: true } & PdfText) | { ok: false; reason: string };

export interface PdfReadOptions {
  /** Stop after this many pages (default 2000): a bound on time for huge scans of books. */
  maxPages?: number;
  /** Called after each page (progress for long documents). */
  onPage?: (page: number, numPages: number) => void;
  /** Refuse a file whose non-image streams inflate past this many bytes (pdf-limits.ts; default 128 MB). */
  maxInflatedBytes?: number;
  /** Stop with an error past this many characters of text (default 20 million). */
  maxTextChars?: number;
}


/**
 * A page counts as text when it has this many letters (a short paragraph); fewer is a scan (perhaps with a
 * one-line stamp such as "Scanned by ..."), a figure or a blank page.
 */
const TEXT_PAGE_LETTERS = 50;
/** A document is unreadable when fewer than this share of its pages have text. */
const MIN_TEXT_PAGE_SHARE = 0.1;

const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
/** pdf.js is large (≈1 MB of code plus its worker): load it only when a PDF shows up. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** Whether the bytes are a PDF (its signature within the first 1024 bytes). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes('%PDF-', 0, 'latin1');
}

/**
 * The text of every page, in order. Never throws for a bad file: an encrypted, damaged or scanned PDF
 * gives `{ok: false, reason}` saying which and what to do. A file over a limit (a decompression bomb, too
 * much text) throws PdfLimitError, which callers answer as "too large", not "unreadable".
 */
export async function readPdf(bytes: Uint8Array, opts: PdfReadOptions = {}): Promise<PdfReadResult> {
  // before pdf.js inflates anything: a decompression bomb is refused here (throws PdfLimitError)
  checkPdfLimits(bytes, { maxInflatedBytes: opts.maxInflatedBytes ?? DEFAULT_PDF_MAX_INFLATED_BYTES });
  const maxText = opts.maxTextChars ?? DEFAULT_PDF_MAX_TEXT_CHARS;
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    // A copy: pdf.js takes (detaches) the buffer it is given, which may be the caller's or part of Node's
    // shared pool of small Buffers. It also refuses Buffers themselves.
    data: new Uint8Array(bytes),
    // No code generated from the file's fonts; no font loading, system fonts or network: text only.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    cMapUrl: join(PDFJS_DIR, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts') + '/',
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy().catch(() => {});
    const name = (e as Error).name;
    if (name === 'PasswordException') return { ok: false, reason: 'the PDF is password-protected: save an unprotected copy and cite that' };
    if (name === 'InvalidPDFException') return { ok: false, reason: `not a valid PDF (${(e as Error).message})` };
    return { ok: false, reason: `the PDF could not be opened (${(e as Error).message})` };
  }
  try {
    const numPages = doc.numPages;
    const last = Math.min(numPages, opts.maxPages ?? 2000);
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= last; n++) {
      const page = await doc.getPage(n);
      try {
        const content = await page.getTextContent();
        const text = linesToText(toLines(content.items as unknown as TextRun[]));
        chars += text.length;
        if (chars > maxText) throw new PdfLimitError(`the PDF has more than ${maxText.toLocaleString('en')} characters of text (by page ${n} of ${numPages}), the most one document is read for: raise the limit with --pdf-text-limit if the file is genuine`);
        pages.push(text);
      } finally {
        page.cleanup();
      }
      opts.onPage?.(n, numPages);
    }
    const textPages = pages.filter((p) => countLetters(p) >= TEXT_PAGE_LETTERS).length;
    if (textPages === 0 || textPages < pages.length * MIN_TEXT_PAGE_SHARE) {
      return {
        ok: false,
        reason: `no text layer (${textPages} of ${pages.length} pages have text): a scanned PDF? Run OCR on it (e.g. ocrmypdf) and use the OCR'd copy`,
      };
    }
    const out: { ok: true } & PdfText = { ok: true, pages, numPages };
    const title = await documentTitle(doc);
    if (title) out.title = title;
    return out;
  } catch (e) {
    if (e instanceof PdfLimitError) throw e;
    return { ok: false, reason: `the PDF could not be read (${(e as Error).message})` };
  } finally {
    await doc.destroy();
  }
}

async function documentTitle(doc: { getMetadata(): Promise<{ info: object }> }): Promise<string | undefined> {
  try {
    const { info } = await doc.getMetadata();
    const t = (info as { Title?: unknown }).Title;
    return typeof t === 'string' && t.trim() ? t.replace(/\s+/g, ' ').trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The part of pdf.js' TextItem used here (marked-content entries have no `str` and are skipped). */
interface TextRun {
  str?: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y]: y is the baseline, |d| about the font size. */
  transform?: number[];
  height?: number;
}

interface Line {
  text: string;
  y: number;
  height: number;
}

function toLines(items: readonly TextRun[]): Line[] {
  const lines: Line[] = [];
  let text = '';
  let y: number | undefined;
  let height = 0;
  const flush = () => {
    if (text.trim()) lines.push({ text: text.replace(/\s+/g, ' ').trim(), y: y ?? 0, height });
    text = '';
    y = undefined;
    height = 0;
  };
  for (const it of items) {
    if (typeof it.str !== 'string') continue;
    const itY = it.transform?.[5];
    const h = Math.abs(it.transform?.[3] ?? 0) || it.height || 0;
    // A run that starts lower (or higher) than the line in progress by more than half a line is a new line.
    if (text && y !== undefined && itY !== undefined && Math.abs(itY - y) > Math.max(h, height) * 0.5) flush();
    if (y === undefined && it.str.trim()) y = itY;
    text += it.str;
    if (it.str.trim()) height = Math.max(height, h);
    if (it.hasEOL) flush();
  }
  flush();
  return lines;
}

const PAGE_NUMBER = /^(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

function linesToText(lines: readonly Line[]): string {
  const kept = lines.filter((l) => !PAGE_NUMBER.test(l.text));
  let out = '';
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i]!;
    if (i === 0) {
      out = line.text;
      continue;
    }
    const prev = kept[i - 1]!;
    const gap = prev.y - line.y;
    const lineHeight = Math.max(prev.height, line.height, 1);
    if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(line.text) && gap > 0 && gap <= lineHeight * 1.8) {
      out = out.slice(0, -1) + line.text; // "verifi-" + "cation"
      continue;
    }
    out += gap > lineHeight * 1.8 || gap < -lineHeight ? '\n\n' : '\n';
    out += line.text;
  }
  return out;
}

function countLetters(s: string): number {
  return s.replace(/[^\p{L}]+/gu, '').length;
}
