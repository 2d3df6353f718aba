/**
 * Streams the non-empty lines of a line-oriented corpus (JSONL), one chunk at a time, so a multi-GB file
 * never has to fit in memory. Handles a UTF-8 BOM, CRLF, blank lines and gzip (`.gz`), and a directory of
 * such files (FEVER's wiki-pages/ is 109 of them), read in name order.
 *
 * Line numbers are 1-based physical lines of each file. `skip` drops the first n records (non-empty lines,
 * good or bad, across all files) by counting only: no JSON parsing, which keeps resuming an ingest cheap.
 *
 * Bytes that are not UTF-8 are not silently replaced: the line comes back with `invalidUtf8` set (and its
 * text decoded with U+FFFD in their place), so readers report it as a bad record with file and line.
 */
import { createReadStream } from 'node:fs';
import { MissingInputError } from '../util/exit-codes.js';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { ReadOptions } from './types.js';

export interface SourceLine {
  file: string;
  /** 1-based physical line number in `file`. */
  line: number;
  text: string;
  /** Set when the line's bytes are not valid UTF-8: 1-based column (in `text`) of the first bad character. */
  invalidUtf8?: { column: number };
}

const LINE_FILE = /\.(jsonl|ndjson)(\.gz)?$/i;

export async function* readLines(path: string, opts: ReadOptions = {}): AsyncGenerator<SourceLine> {
  let toSkip = opts.skip ?? 0;
  for (const file of await lineFiles(path)) {
    let line = 0;
    for await (const raw of physicalLines(file)) {
      line++;
      const decoded = typeof raw === 'string' ? raw : raw.text;
      const bom = line === 1 && decoded.charCodeAt(0) === 0xfeff;
      const text = bom ? decoded.slice(1) : decoded;
      if (isBlank(text)) continue;
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      if (typeof raw === 'string') yield { file, line, text };
      else yield { file, line, text, invalidUtf8: { column: raw.column - (bom ? 1 : 0) } };
    }
  }
}

/** The file itself, or the JSONL files of a directory in name order. Throws, naming the path, if missing. */
export async function lineFiles(path: string): Promise<string[]> {
  const info = await statOrThrow(path);
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => LINE_FILE.test(n) && !n.startsWith('.')).sort(byCodePoint);
  if (names.length === 0) throw new MissingInputError(`no .jsonl files in directory: ${path}`);
  return names.map((n) => join(path, n));
}

export async function statOrThrow(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A named input that is not there (66), not a fault of veracite (70): say what a corpus is and where one ships.
    throw new MissingInputError(code === 'ENOENT' ? `corpus path not found: ${path} (give a JSONL file or a folder of them, a Wikimedia dump or a Wikipedia/KILT file; e.g. data/samples/scifact/corpus.jsonl)` : `cannot read corpus path ${path}: ${(e as Error).message}`);
  }
}

/** Plain code-point order, so the order (and so `skip`) does not depend on the machine's locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A line whose bytes are not valid UTF-8: its lenient decoding and the column of the first bad character. */
interface InvalidLine {
  text: string;
  column: number;
}

// fatal: invalid bytes throw instead of becoming U+FFFD; ignoreBOM: a BOM stays in the text (line 1's is
// removed by readLines, as before), since every decode call below starts at a line boundary.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Every physical line (without its "\n" or "\r\n"), including empty ones, so numbering stays exact.
 * Bytes are split at "\n" (0x0A never occurs inside a multi-byte UTF-8 character) and each run of whole
 * lines is decoded strictly in one call; only a run that fails is decoded line by line to find the bad one.
 */
async function* physicalLines(file: string): AsyncGenerator<string | InvalidLine> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  let stream: NodeJS.ReadableStream & { destroy(error?: Error): void } = raw;
  if (file.toLowerCase().endsWith('.gz')) {
    const gunzip = createGunzip();
    raw.on('error', (e) => gunzip.destroy(e)); // pipe() does not forward errors
    stream = raw.pipe(gunzip);
  }
  // Bytes after the last "\n" seen, kept as a list so a very long line is joined once, not once per chunk.
  let pending: Buffer[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const last = chunk.lastIndexOf(10);
      if (last === -1) {
        pending.push(chunk);
        continue;
      }
      const head = chunk.subarray(0, last);
      const run = pending.length ? Buffer.concat([...pending, head]) : head;
      pending = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
      yield* decodeLines(run);
    }
  } finally {
    // Also when the consumer stops early (detectFormat reads one line).
    if (stream !== raw) stream.destroy();
    raw.destroy();
  }
  if (pending.length) yield* decodeLines(Buffer.concat(pending));
}

/**
 * A whole file's bytes as UTF-8 text, or where its first invalid byte is (1-based line and column), so a
 * file of another encoding is reported instead of silently becoming U+FFFD characters.
 */
export function decodeUtf8(bytes: Uint8Array): { ok: true; text: string } | { ok: false; line: number; column: number } {
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    let line = 0;
    for (const l of decodeLines(bytes)) {
      line++;
      if (typeof l !== 'string') return { ok: false, line, column: l.column };
    }
    return { ok: false, line: 0, column: 0 };
  }
}

/** The "\n"-separated lines of `bytes` (which holds whole lines, without the final "\n"). */
function* decodeLines(bytes: Uint8Array): Generator<string | InvalidLine> {
  let text: string | undefined;
  try {
    text = strict.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) !== -1) {
      yield stripCr(text.slice(start, nl));
      start = nl + 1;
    }
    yield stripCr(text.slice(start));
    return;
  }
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    const line = bytes.subarray(start, nl === -1 ? bytes.length : nl);
    try {
      yield stripCr(strict.decode(line));
    } catch {
      const loose = stripCr(lenient.decode(line));
      yield { text: loose, column: loose.indexOf('\ufffd') + 1 };
    }
    if (nl === -1) return;
    start = nl + 1;
  }
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
