/**
 * Durable annotation storage: an append-only JSONL file, one annotation per line, fsync'ed before the
 * write is acknowledged.
 *
 * Why a JSONL file rather than a LanceDB table in the index: annotations arrive one at a time, by hand.
 * A LanceDB insert commits a new table version (a new fragment and manifest) per row, which needs
 * compaction and makes "durable when acknowledged" depend on its commit path; an append + fdatasync of
 * one line is the whole durability story, a crash can only leave a torn last line (dropped, or kept when
 * it is complete, on the next open), the export is the file itself, and the file does not depend on the
 * index: re-indexing or deleting the index leaves the annotations alone when --data-dir is elsewhere.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, stat, truncate, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fsyncDir } from '../util/atomic-file.js';
import { AnnotationSchema, type Annotation } from './types.js';

export const ANNOTATIONS_FILE = 'annotations.jsonl';

export function annotationsPath(dataDir: string): string {
  return join(dataDir, ANNOTATIONS_FILE);
}

/** Makes the file end at a line boundary: a complete last line without "\n" gets one, a torn one is cut. */
async function repairTail(path: string): Promise<number> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  const end = buf.lastIndexOf(0x0a) + 1;
  if (end === buf.length) return buf.length;
  const tail = buf.subarray(end).toString('utf8');
  try {
    AnnotationSchema.parse(JSON.parse(tail));
    const fh = await open(path, 'a');
    try {
      await fh.write('\n');
      await fh.datasync();
    } finally {
      await fh.close();
    }
    return buf.length + 1;
  } catch {
    await truncate(path, end);
    return end;
  }
}

export class AnnotationStore {
  /** (jobId, citationId) pairs annotated: the comparison queue skips them. */
  private readonly done = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly path: string,
    private fh: FileHandle,
    /** Bytes known to end at a line boundary and be on disk: exports read up to here only. */
    private committed: number,
  ) {}

  static async open(dataDir: string): Promise<AnnotationStore> {
    await mkdir(dataDir, { recursive: true });
    const path = annotationsPath(dataDir);
    const committed = await repairTail(path);
    const fh = await open(path, 'a');
    if (committed === 0) await fsyncDir(dirname(path)); // the new file's directory entry
    const store = new AnnotationStore(path, fh, committed);
    for await (const a of readAnnotations(path)) store.done.add(key(a.jobId, a.citationId));
    return store;
  }

  has(jobId: string, citationId: string): boolean {
    return this.done.has(key(jobId, citationId));
  }

  get count(): number {
    return this.done.size;
  }

  /** Appends and fsyncs; resolves once the annotation is on disk. Appends are serialised. */
  append(a: Annotation): Promise<void> {
    if (this.closed) return Promise.reject(new Error('annotation store is closed'));
    const line = Buffer.from(`${JSON.stringify(AnnotationSchema.parse(a))}\n`);
    const run = this.chain.then(async () => {
      await this.fh.write(line);
      await this.fh.datasync();
      this.committed += line.length;
      this.done.add(key(a.jobId, a.citationId));
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The committed annotations as JSONL lines (validated; see exportLines). */
  lines(): AsyncGenerator<string> {
    return exportLines(this.path, this.committed);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.chain;
    await this.fh.close();
  }
}

function key(jobId: string, citationId: string): string {
  return `${jobId}\u0000${citationId}`;
}

/**
 * Valid annotation lines of a JSONL file, each with its "\n". A line that is not a valid annotation
 * (hand-edited, or a torn last line of a file the server is not holding) is skipped and reported to
 * `onBad`, so one bad line never hides the rest. `endBytes` stops at a committed length.
 */
export async function* exportLines(path: string, endBytes?: number, onBad?: (line: number, reason: string) => void): AsyncGenerator<string> {
  if (endBytes === 0) return;
  try {
    await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const stream = createReadStream(path, endBytes === undefined ? {} : { start: 0, end: endBytes - 1 });
  let n = 0;
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    n++;
    if (!raw.trim()) continue;
    try {
      AnnotationSchema.parse(JSON.parse(raw));
      yield `${raw}\n`;
    } catch (e) {
      onBad?.(n, (e as Error).message.split('\n')[0]!);
    }
  }
}

export async function* readAnnotations(path: string, onBad?: (line: number, reason: string) => void): AsyncGenerator<Annotation> {
  for await (const line of exportLines(path, undefined, onBad)) yield AnnotationSchema.parse(JSON.parse(line));
}
