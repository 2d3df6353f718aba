/**
 * `veracite audit <file|url>` input of any kind -> AuditInput. The format comes from `--format` when given,
 * else from the file: extension first (.md/.markdown, .html/.htm, .txt, .pdf, .jsonl/.json), then content.
 * Wikipedia inputs keep their own readers (src/wiki via src/audit/article-input.ts):
 *   - .html/.htm is a Wikipedia page when it has MediaWiki's markup (mw-parser-output, sup.reference),
 *     otherwise a report or blog post;
 *   - .txt (and an extensionless file) is wikitext when it has refs, cite templates, [[links]] or
 *     == headings ==, otherwise plain text;
 *   - a PDF is read page by page; its text is then read like plain text;
 *   - any other binary file is refused (NotTextError, "unreadable: not text"; util/not-text.ts).
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fromArticle, loadArticleInput, titleFromFileName, wikiTitleFromUrl } from '../audit/article-input.js';
import { SettingsError } from '../util/settings-error.js';
import { assertText } from '../util/not-text.js';
import { parseWikipediaHtml, parseWikitext } from '../wiki/index.js';
import type { AuditInput, DocumentKind } from '../audit/types.js';
import { readPdf, looksLikePdf } from '../corpus/pdf-text.js';
import { fetchPage, type FetchPolicy } from '../sources/http-fetch.js';
import { parseHtmlDocument } from './html.js';
import { parseMarkdownDocument } from './markdown.js';
import { parsePlainTextDocument } from './plain-text.js';
import type { CitedDocument, DocumentParseOptions } from './types.js';
import type { ArticleContent } from './content-types.js';
import { INPUT_FORMATS, type InputFormat } from './input-formats.js';
import { BadDataError, MissingInputError } from '../util/exit-codes.js';

// Defined in input-formats.ts (light: the command line's help lists them).
export { INPUT_FORMATS, type InputFormat };

export interface DocumentInputOptions {
  format?: InputFormat;
  title?: string;
  contextSentences?: number;
  /** Needed for a URL: live fetching is opt-in. */
  fetch?: boolean;
  fetchPolicy?: FetchPolicy;
  /**
   * Read at most this many citations, the first ones: a wikitext article stops parsing there (the rest is
   * never materialised); other kinds are cut after reading.
   */
  maxCitations?: number;
  /** Reads the file's content within the parse budgets (a worker pool); default: on this thread. */
  reader?: { article(a: ArticleContent): Promise<AuditInput> };
}

/** Wikipedia's rendered HTML carries MediaWiki's classes. */
export function isWikipediaHtml(html: string): boolean {
  return /class="[^"]*\bmw-parser-output\b|<sup[^>]*class="[^"]*\breference\b/i.test(html);
}

/** Wikitext has refs, citation templates, wiki links or == headings ==; plain prose has none of these. */
export function isWikitext(text: string): boolean {
  return /<ref[\s>/]|\{\{\s*(?:cite|citation|sfn|reflist)\b|\[\[[^\]\n]+\]\]|^={2,6}[^=\n]+={2,6}\s*$/im.test(text);
}

/** Refs or citation templates, wherever they are: a file with these is wikitext, however it starts. */
const WIKI_CITATION = /<ref[\s>/]|\{\{\s*(?:cite|citation|sfn)\b/i;

/**
 * The kind of a local file or fetched body, from its name and content. HTML is recognised from the first
 * 64 KB; wikitext from them, or from a ref or citation template anywhere (a long lead without markup
 * once made a wikitext file plain text, and its refs were dropped without a word).
 */
export function detectFormat(name: string, content: string | Uint8Array): DocumentKind {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content.slice(0, 4096)) : content;
  if (looksLikePdf(bytes)) return 'pdf';
  const ext = extname(name.replace(/[?#].*$/, '')).toLowerCase();
  const head = typeof content === 'string' ? content.slice(0, 65536) : new TextDecoder().decode(content.subarray(0, 65536));
  if (ext === '.jsonl' || ext === '.json' || name.toLowerCase().endsWith('.jsonl.gz')) return 'kilt';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.html' || ext === '.htm' || ext === '.xhtml' || /^\s*(?:<!doctype html|<html)/i.test(head)) return isWikipediaHtml(head) ? 'wikipedia-html' : 'html';
  if (isWikitext(head)) return 'wikipedia-wikitext';
  const whole = typeof content === 'string' ? content : content.byteLength > 65536 ? new TextDecoder().decode(content) : head;
  return WIKI_CITATION.test(whole) ? 'wikipedia-wikitext' : 'text';
}

/** Why a document gave no citation, in words a user can act on (printed with "0 citations"). */
export function noCitationsReason(kind: DocumentKind | undefined): string {
  switch (kind) {
    case 'text':
    case 'pdf':
      return 'read as plain text: no DOI, arXiv or PubMed id, bare URL or numbered reference list was found (for wikitext, give --format wikipedia-wikitext)';
    case 'markdown':
      return 'read as Markdown: no links, footnotes or numbered references were found';
    case 'html':
      return 'read as an HTML page: no links, footnotes or numbered references in its main text';
    case 'wikipedia-wikitext':
      return 'read as wikitext: no <ref> in the prose (refs in infoboxes, tables and captions have no claim and are skipped)';
    case 'wikipedia-html':
      return 'read as a Wikipedia page: no footnote markers in the prose';
    default:
      return 'no citation records in the file';
  }
}

/** Parses a document of a non-Wikipedia kind. */
export async function parseDocument(content: string | Uint8Array, kind: Extract<DocumentKind, 'markdown' | 'html' | 'text' | 'pdf'>, opts: DocumentParseOptions = {}): Promise<CitedDocument> {
  if (kind === 'pdf') {
    const pdf = await readPdf(typeof content === 'string' ? new TextEncoder().encode(content) : content, opts.pdf ?? {});
    if (!pdf.ok) throw new Error(`cannot read the PDF: ${pdf.reason}`);
    return parsePlainTextDocument(pdf.pages.join('\n'), { ...opts, kind: 'pdf', ...(opts.title === undefined && pdf.title ? { title: pdf.title } : {}) });
  }
  const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
  if (kind === 'markdown') return parseMarkdownDocument(text, opts);
  if (kind === 'html') return parseHtmlDocument(text, opts);
  return parsePlainTextDocument(text, opts);
}

export function documentToAuditInput(doc: CitedDocument, origin: string): AuditInput {
  return {
    title: doc.title,
    origin,
    format: doc.kind === 'html' || doc.kind === 'markdown' || doc.kind === 'text' || doc.kind === 'pdf' ? doc.kind : 'text',
    kind: doc.kind,
    citations: doc.citations,
    skippedRefs: doc.skipped.length,
    uncitedClaims: 0,
  };
}

/**
 * Any audit input: a file or (with `fetch`) a URL, of any kind. Wikipedia kinds go to loadArticleInput;
 * Markdown, HTML reports, plain text and PDFs to src/documents.
 */
export async function loadDocumentInput(input: string, opts: DocumentInputOptions = {}): Promise<AuditInput> {
  const read = await loadAnyInput(input, opts);
  if (opts.maxCitations !== undefined && read.citations.length > opts.maxCitations) read.citations = read.citations.slice(0, opts.maxCitations);
  return read;
}

async function loadAnyInput(input: string, opts: DocumentInputOptions): Promise<AuditInput> {
  const limit = opts.maxCitations !== undefined ? { maxCitations: opts.maxCitations } : {};
  const parseOpts: DocumentParseOptions = {};
  if (opts.contextSentences !== undefined) parseOpts.contextSentences = opts.contextSentences;
  if (/^https?:\/\//i.test(input)) {
    if (!opts.fetch) throw new SettingsError('sources.fetch', `${input} is a URL and live fetching is off (the default): turn it on to read the document`);
    const res = await fetchPage(input, { ...opts.fetchPolicy, pdf: true });
    if (!res.ok) throw new Error(`cannot read ${input}: ${res.status} (${res.reason})`);
    const body = res.kind === 'pdf' ? res.bytes : res.body;
    const kind = opts.format && opts.format !== 'auto' ? opts.format : res.kind === 'html' ? (isWikipediaHtml(res.body) ? 'wikipedia-html' : 'html') : detectFormat(new URL(res.finalUrl).pathname, body);
    // A Wikipedia page is parsed from the response already in hand (one fetch per article).
    if ((kind === 'wikipedia-html' || kind === 'wikipedia-wikitext') && res.kind !== 'pdf') {
      const title = opts.title ?? wikiTitleFromUrl(res.finalUrl) ?? '';
      const article = kind === 'wikipedia-html' ? parseWikipediaHtml(res.body, { title, ...parseOpts }) : parseWikitext(res.body, { title, ...parseOpts, ...limit });
      return { ...fromArticle(article, input, kind === 'wikipedia-html' ? 'html' : 'wikitext'), kind };
    }
    if (kind === 'kilt' || kind === 'wikipedia-html' || kind === 'wikipedia-wikitext') return { ...(await loadArticleInput(input, { ...opts, fetch: true })), kind };
    const doc = await parseDocument(body, kind, { ...parseOpts, baseUrl: res.finalUrl, ...(opts.title ? { title: opts.title } : {}) });
    return documentToAuditInput(doc, input);
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(input);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MissingInputError(`${input}: no such file. Give a document to audit (wikitext, Wikipedia HTML, KILT/WAFER .jsonl, Markdown, HTML, text or PDF), or a URL with live fetching on`);
    if (code === 'EISDIR') throw new BadDataError(`${input} is a folder: give one document to audit`);
    throw new Error(`cannot read ${input}: ${(e as Error).message}`);
  }
  const kind = opts.format && opts.format !== 'auto' ? opts.format : detectFormat(input, bytes);
  // A PDF is binary and read as one; any other binary file (an image, an archive) is refused, not parsed.
  if (kind !== 'pdf') assertText(bytes, input);
  // Within the parse budgets, off this thread (documents/document-reader.ts): everything but KILT records.
  if (opts.reader && kind !== 'kilt') {
    const read = await opts.reader
      .article({
      kind,
      content: kind === 'pdf' ? new Uint8Array(bytes) : bytes.toString('utf8'),
      origin: input,
      ...(opts.title ? { title: opts.title } : kind === 'wikipedia-wikitext' ? { title: titleFromFileName(input) } : {}),
      ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}),
      ...limit,
    })
      .catch((e: Error) => {
        // name the file: the limit's own message says which limit and how to raise it
        e.message = `${input}: ${e.message}`;
        throw e;
      });
    if (!read.title) read.title = titleFromFileName(input);
    return read;
  }
  if (kind === 'wikipedia-html' || kind === 'wikipedia-wikitext' || kind === 'kilt') {
    const a = await loadArticleInput(input, { ...(opts.title ? { title: opts.title } : {}), ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}), ...limit });
    return { ...a, kind };
  }
  const doc = await parseDocument(kind === 'pdf' ? bytes : bytes.toString('utf8'), kind, { ...parseOpts, ...(opts.title ? { title: opts.title } : {}) });
  if (!doc.title) doc.title = titleFromFileName(input);
  return documentToAuditInput(doc, input);
}
