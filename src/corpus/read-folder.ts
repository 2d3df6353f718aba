/**
 * A folder of .txt, .md, .html and .pdf files, read recursively in path order (so `skip` resumes at the
 * same file). One file is one record: id = path relative to the folder ("/"-separated), title = first
 * heading (Markdown), <title> (HTML), the PDF's Title, or the file name. A PDF is read page by page and its
 * sentences keep their page numbers (Document.sentencePages); a PDF without a text layer (a scan) is a
 * record error saying so, not an empty document. Hidden files and folders (".git") and symlinks are
 * skipped. A path to a single file reads just that file. Each file is opened by util/folder-file.ts: one that
 * was swapped for a link out of the folder, a FIFO or a device, or one over FOLDER_FILE_MAX_BYTES (checked
 * before and while reading), is a record error naming it, never read.
 */
import { readdir, realpath } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { htmlToText } from './html-text.js';
import { markdownToText } from './markdown-text.js';
import { readPdf } from './pdf-text.js';
import { byCodePoint, decodeUtf8, statOrThrow } from './read-lines.js';
import { readFolderFile } from '../util/folder-file.js';
import { RecordError, type RawDocument, type ReadOptions, type ReadResult } from './types.js';

export const FOLDER_FILE = /\.(txt|md|markdown|html?|pdf)$/i;
/** One file of a corpus folder, at most: a document larger than this is refused by name (split it). */
export const FOLDER_FILE_MAX_BYTES = 128 * 1024 * 1024;

/** The bytes of `rel` under `root`, or the record error that names why it is not read. */
async function readEntry([root, rel]: [string, string], file: string): Promise<Buffer | RecordError> {
  const read = await readFolderFile(root, rel, { maxBytes: FOLDER_FILE_MAX_BYTES, folderName: 'corpus folder' });
  return read.ok ? read.bytes : new RecordError(file, 0, undefined, read.problem === 'too-large' ? `${read.reason.replace(/; shorten it$/, '')}; split it into smaller files` : read.reason);
}

export async function* readFolder(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadResult> {
  const info = await statOrThrow(path);
  const root = info.isDirectory() ? path : dirname(path);
  const files = info.isDirectory() ? await listFiles(root) : [basename(path)];
  // A file named on its own is the user's choice, a link included: it is read where it really is (still a
  // regular file under the cap). A folder's entries must stay in the folder.
  const single = info.isDirectory() ? undefined : await realpath(path);
  const at = (rel: string): [string, string] => (single ? [dirname(single), basename(single)] : [root, rel]);
  let toSkip = opts.skip ?? 0;
  for (const rel of files) {
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    const file = join(root, rel);
    if (/\.pdf$/i.test(rel)) {
      yield await readPdfFile(at(rel), rel, file);
      continue;
    }
    const bytes = await readEntry(at(rel), file);
    if (bytes instanceof RecordError) {
      yield { ok: false, error: bytes };
      continue;
    }
    const decoded = decodeUtf8(bytes);
    if (!decoded.ok) {
      yield { ok: false, error: new RecordError(file, decoded.line, undefined, `invalid UTF-8 at column ${decoded.column}: save the file as UTF-8 and index it again`) };
      continue;
    }
    const content = stripBom(decoded.text);
    let result: ReadResult;
    try {
      result = { ok: true, doc: fileToDocument(rel.split(sep).join('/'), content), loc: { file, line: 0 } };
    } catch (e) {
      result = { ok: false, error: new RecordError(file, 0, undefined, `cannot extract text: ${(e as Error).message}`) };
    }
    yield result;
  }
}

async function readPdfFile(entry: [string, string], rel: string, file: string): Promise<ReadResult> {
  const id = rel.split(sep).join('/');
  const bytes = await readEntry(entry, file);
  if (bytes instanceof RecordError) return { ok: false, error: bytes };
  const pdf = await readPdf(bytes);
  if (!pdf.ok) return { ok: false, error: new RecordError(file, 0, undefined, pdf.reason) };
  return { ok: true, doc: { id, title: pdf.title || basename(id, extname(id)), pages: pdf.pages }, loc: { file, line: 0 } };
}

/** Turn one file's content into a document; `id` is its "/"-separated relative path. */
export function fileToDocument(id: string, content: string): RawDocument {
  const ext = extname(id).toLowerCase();
  const fileTitle = basename(id, extname(id));
  if (ext === '.html' || ext === '.htm') {
    const page = htmlToText(content);
    const doc: RawDocument = { id, title: page.title || fileTitle, text: page.text };
    if (page.url) doc.url = page.url;
    if (page.links.length) doc.links = page.links;
    return doc;
  }
  if (ext === '.md' || ext === '.markdown') {
    const md = markdownToText(content);
    const doc: RawDocument = { id, title: md.title || fileTitle, text: md.text };
    if (md.links.length) doc.links = md.links;
    return doc;
  }
  return { id, title: fileTitle, text: content };
}

/** Relative paths of the readable files under `root`, sorted by code point. */
export async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await visit(full);
      else if (e.isFile() && FOLDER_FILE.test(e.name)) found.push(relative(root, full));
    }
  };
  await visit(root);
  return found.sort(byCodePoint);
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
