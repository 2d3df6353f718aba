/**
 * Streams the non-empty lines of a line-oriented corpus (JSONL), one chunk at a time, so a multi-GB file
 * never has to fit in memory. Handles a UTF-8 BOM, CRLF, blank lines and gzip (`.gz`), and a directory of
 * such files (FEVER's wiki-pages/ is 109 of them), read in name order.
 *
 * Line numbers are 1-based physical lines of each file. `skip` drops the first n records (non-empty lines,
 * good or bad, across all files) by counting only: no JSON parsing, which keeps resuming an ingest cheap.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { ReadOptions } from './types.js';

export interface SourceLine {
  file: string;
  /** 1-based physical line number in `file`. */
  line: number;
  text: string;
}

const LINE_FILE = /\.(jsonl|ndjson)(\.gz)?$/i;

export async function* readLines(path: string, opts: ReadOptions = {}): AsyncGenerator<SourceLine> {
  let toSkip = opts.skip ?? 0;
  for (const file of await lineFiles(path)) {
    let line = 0;
    for await (const raw of physicalLines(file)) {
      line++;
      const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (isBlank(text)) continue;
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      yield { file, line, text };
    }
  }
}

/** The file itself, or the JSONL files of a directory in name order. Throws, naming the path, if missing. */
export async function lineFiles(path: string): Promise<string[]> {
  const info = await statOrThrow(path);
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => LINE_FILE.test(n) && !n.startsWith('.')).sort(byCodePoint);
  if (names.length === 0) throw new Error(`no .jsonl files in directory: ${path}`);
  return names.map((n) => join(path, n));
}

export async function statOrThrow(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `corpus path not found: ${path}` : `cannot read corpus path ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** Plain code-point order, so the order (and so `skip`) does not depend on the machine's locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every physical line (without its "\n" or "\r\n"), including empty ones, so numbering stays exact. */
async function* physicalLines(file: string): AsyncGenerator<string> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  let stream: NodeJS.ReadableStream & { destroy(error?: Error): void } = raw;
  if (file.toLowerCase().endsWith('.gz')) {
    const gunzip = createGunzip();
    raw.on('error', (e) => gunzip.destroy(e)); // pipe() does not forward errors
    stream = raw.pipe(gunzip);
  }
  stream.setEncoding('utf8'); // decodes multi-byte characters split across chunks correctly
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      let nl = chunk.indexOf('\n');
      if (nl === -1) {
        rest += chunk;
        continue;
      }
      yield stripCr(rest + chunk.slice(0, nl));
      start = nl + 1;
      while ((nl = chunk.indexOf('\n', start)) !== -1) {
        yield stripCr(chunk.slice(start, nl));
        start = nl + 1;
      }
      rest = chunk.slice(start);
    }
  } finally {
    // Also when the consumer stops early (detectFormat reads one line).
    if (stream !== raw) stream.destroy();
    raw.destroy();
  }
  if (rest.length > 0) yield stripCr(rest);
}

function stripCr(s: string): string {
  return s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s;
}

function isBlank(s: string): boolean {
  if (s.length === 0) return true;
  const c = s.charCodeAt(0);
  if (c > 32 && c !== 0xa0) return false; // the common case: a record starting with "{"
  return s.trim().length === 0;
}
