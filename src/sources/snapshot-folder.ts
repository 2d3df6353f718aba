/**
 * A local folder of saved source pages (`--sources DIR`), for audits without network access. A page is
 * found either through `manifest.jsonl` (one `{"url": ..., "path": ..., "title"?: ...}` per line, path
 * relative to the folder) or by file name: `<urlKey(url)>.html|.htm|.txt|.md|.pdf` (urlKey = first 24 hex
 * digits of sha256 of the normalised URL, see page-text.ts). A PDF is read page by page (its sentences
 * keep their page numbers); one without a text layer is found but reported unreadable, and so is a binary
 * file saved under a page's name. Every file (the manifest too) is opened by util/folder-file.ts: a symlink
 * out of the folder, a device, a FIFO or a file over the size cap (`sources.maxBytes`, checked before and while
 * reading) is refused by name for its citation alone, never read.
 */
import { readdir } from 'node:fs/promises';
import { MissingInputError } from '../util/exit-codes.js';
import { extname, join, resolve } from 'node:path';
import type { Document } from '../corpus/types.js';
import { normalizeUrl } from '../store/url.js';
import { readFolderFile } from '../util/folder-file.js';
import { notTextReason } from '../util/not-text.js';
import { pageToDocument, pdfToDocument, urlKey, type PageKind } from './page-text.js';
import { landingUrl, RESOLVABLE_IDS, type WorkIdType } from './work-ids.js';

export const SNAPSHOT_MANIFEST = 'manifest.jsonl';
/** A saved page is held to a fetched page's size (settings sources.maxBytes) unless told otherwise. */
export const DEFAULT_SNAPSHOT_MAX_BYTES = 5 * 1024 * 1024;
/** The manifest's own cap: a line per page, so far more than any folder lists. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export interface SnapshotFolderOptions {
  /** Bytes of one saved page, at most (settings sources.maxBytes). */
  maxBytes?: number;
}
const EXTENSIONS = ['.html', '.htm', '.txt', '.md', '.pdf'] as const;

export type SnapshotLookup =
  | { found: true; path: string; document: Document }
  | { found: true; path: string; unsupported: string }
  /** Read, but no text in it (a PDF without a text layer). */
  | { found: true; path: string; unreadable: string }
  /** The entry leaves the folder (a ".." path, a symbolic link out), is not a regular file (a FIFO, a device) or is over the size cap: refused, never read. */
  | { found: true; path: string; refused: string }
  /** Listed (or named) but the file cannot be read (missing, a directory, no permission). */
  | { found: false; missingFile: string }
  | { found: false };

export class SnapshotFolder {
  private constructor(
    readonly dir: string,
    private readonly byUrl: Map<string, { path: string; title?: string }>,
    private readonly files: Set<string>,
    private readonly maxBytes: number,
  ) {}

  static async open(dir: string, opts: SnapshotFolderOptions = {}): Promise<SnapshotFolder> {
    const root = resolve(dir);
    let names: string[];
    try {
      names = await readdir(root);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // The folder named by --sources (or the server's): said in words with what to give, not as ENOENT / ENOTDIR.
      if (code === 'ENOENT') throw new MissingInputError(`--sources ${dir}: no such folder (give the folder of saved pages, e.g. data/samples/audit/sources)`);
      if (code === 'ENOTDIR') throw new MissingInputError(`--sources ${dir}: a file, not a folder (give the folder of saved pages; a single page is --source in veracite check)`);
      throw e;
    }
    const files = new Set(names);
    const byUrl = new Map<string, { path: string; title?: string }>();
    if (files.has(SNAPSHOT_MANIFEST)) {
      const manifest = await readFolderFile(root, SNAPSHOT_MANIFEST, { maxBytes: MANIFEST_MAX_BYTES, folderName: 'snapshot folder' });
      if (!manifest.ok) throw new Error(`${root}: the snapshot folder's ${manifest.reason}`);
      const lines = manifest.bytes.toString('utf8').split(/\r?\n/);
      lines.forEach((line, i) => {
        if (!line.trim()) return;
        let rec: { url?: unknown; path?: unknown; title?: unknown } & Partial<Record<WorkIdType, unknown>>;
        try {
          rec = JSON.parse(line) as typeof rec;
        } catch (e) {
          throw new Error(`${join(root, SNAPSHOT_MANIFEST)}:${i + 1}: invalid JSON (${(e as Error).message})`);
        }
        // An entry is keyed by URL, by identifier ({"doi": ...}, "pmid", "pmc", "arxiv"...: stored under the
        // identifier's landing page, which is where an audit looks for a reference without URL), or both.
        const keys = typeof rec.url === 'string' ? [rec.url] : [];
        for (const type of RESOLVABLE_IDS) if (typeof rec[type] === 'string' && rec[type]) keys.push(landingUrl(type, String(rec[type]).replace(/^PMC/i, type === 'pmc' ? '' : 'PMC')));
        if (!keys.length || typeof rec.path !== 'string') throw new Error(`${join(root, SNAPSHOT_MANIFEST)}:${i + 1}: needs "path" and "url" (or an identifier: ${RESOLVABLE_IDS.join(', ')}) strings`);
        const entry: { path: string; title?: string } = { path: rec.path };
        if (typeof rec.title === 'string') entry.title = rec.title;
        for (const k of keys) byUrl.set(normalizeUrl(k), entry);
      });
    }
    return new SnapshotFolder(root, byUrl, files, opts.maxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES);
  }

  /** The file name a page for `url` should have in a snapshot folder (without manifest). */
  static fileNameFor(url: string, ext: (typeof EXTENSIONS)[number] = '.html'): string {
    return `${urlKey(url)}${ext}`;
  }

  async lookup(url: string): Promise<SnapshotLookup> {
    const listed = this.byUrl.get(normalizeUrl(url));
    let rel = listed?.path;
    if (!rel) {
      const key = urlKey(url);
      rel = EXTENSIONS.map((e) => `${key}${e}`).find((f) => this.files.has(f));
    }
    if (!rel) return { found: false };
    const path = resolve(this.dir, rel);
    // A manifest (or a file) must not lead outside its folder, nor be a device, a FIFO or a huge file (the folder
    // may come from somewhere else than the user). Only this citation fails: the rest of the audit goes on.
    const read = await readFolderFile(this.dir, rel, { maxBytes: this.maxBytes, folderName: 'snapshot folder', capSetting: 'sources.maxBytes' });
    if (!read.ok) {
      if (read.problem === 'missing' || read.problem === 'unreadable') return { found: false, missingFile: `snapshot file ${read.reason}` };
      return { found: true, path, refused: `snapshot file ${read.reason}` };
    }
    const bytes = read.bytes;
    const ext = extname(path).toLowerCase();
    if (ext === '.pdf') {
      const pdf = await pdfToDocument(bytes, url, listed?.title);
      return pdf.ok ? { found: true, path, document: pdf.document } : { found: true, path, unreadable: pdf.reason };
    }
    const kind: PageKind = ext === '.html' || ext === '.htm' ? 'html' : ext === '.md' ? 'markdown' : 'text';
    // A binary file saved under a page's name (an image, an archive) is unreadable, not text to score.
    const binary = notTextReason(bytes);
    if (binary) return { found: true, path, unreadable: `snapshot file ${rel}: unreadable: not text (${binary})` };
    const body = bytes.toString('utf8');
    return { found: true, path, document: pageToDocument(body, kind, url, listed?.title) };
  }
}
