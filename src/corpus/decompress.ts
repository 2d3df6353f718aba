/**
 * A file's bytes, decompressed by its name: `.bz2`, `.gz` (node:zlib, concatenated gzip members too), or
 * as is. `onBytes` reports compressed bytes read, for progress and ETA.
 *
 * bzip2: the `lbzip2` or `bzip2` program when one is installed (C, in its own process, so decompression runs
 * beside the parsing instead of on the same thread; lbzip2 also uses every core), else unbzip2-stream (pure
 * JS, ~5 MB/s of output a core). Both read concatenated bzip2 streams, so Wikimedia's multistream dumps read
 * as one file. `VERACITE_BZIP2=js` forces the JS decoder. A byte range reads part of a file (bzip2
 * streams of a multistream dump start at byte boundaries, so a range from one stream's start to another's
 * decompresses on its own).
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2 from 'unbzip2-stream';

export interface DecompressedFile {
  stream: Readable;
  /** Size of the file on disk (compressed). */
  bytes: number;
  /** What decompresses it: 'lbzip2', 'bzip2', 'unbzip2-stream', 'zlib' or 'none'. */
  decoder: string;
}

let bzip2Program: string | null | undefined;

/** The first of lbzip2, bzip2 on PATH (looked up once), or null. */
export function bzip2ProgramOnPath(): string | null {
  if (bzip2Program !== undefined) return bzip2Program;
  bzip2Program = null;
  for (const name of ['lbzip2', 'bzip2']) {
    for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
      if (dir && existsSync(join(dir, name))) return (bzip2Program = join(dir, name));
    }
  }
  return bzip2Program;
}

/** Bytes [start, end) of a file: one share of a multistream dump's bzip2 streams (read-multistream.ts). */
export interface ByteRange {
  start: number;
  end: number;
}

export async function openDecompressed(file: string, onBytes?: (read: number, total: number) => void, range?: ByteRange): Promise<DecompressedFile> {
  const size = range ? range.end - range.start : (await stat(file)).size;
  const raw = createReadStream(file, { highWaterMark: 1 << 20, ...(range ? { start: range.start, end: range.end - 1 } : {}) });
  let read = 0;
  if (onBytes) {
    raw.on('data', (chunk: Buffer | string) => {
      read += chunk.length;
      onBytes(read, size);
    });
  }
  const lower = file.toLowerCase();
  if (lower.endsWith('.gz')) return { stream: forward(raw, raw.pipe(createGunzip())), bytes: size, decoder: 'zlib' };
  if (!lower.endsWith('.bz2')) return { stream: raw, bytes: size, decoder: 'none' };
  const program = process.env['VERACITE_BZIP2'] === 'js' ? null : bzip2ProgramOnPath();
  if (program) {
    const child = spawn(program, ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = new PassThrough({ highWaterMark: 1 << 20 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 2000)));
    child.on('error', (e) => out.destroy(e));
    child.on('close', (code, signal) => {
      if (code !== 0 && !out.destroyed) out.destroy(new Error(`${program} -dc ${file} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
    // The child's stdin closing early (EPIPE, after a bad stream) is reported by its exit status.
    child.stdin.on('error', () => undefined);
    raw.on('error', (e) => out.destroy(e));
    raw.pipe(child.stdin);
    child.stdout.pipe(out);
    // A reader that stops early (an error further down) ends the child too.
    out.on('close', () => {
      if (child.exitCode === null) child.kill();
      raw.destroy();
    });
    return { stream: out, bytes: size, decoder: program.endsWith('lbzip2') ? 'lbzip2' : 'bzip2' };
  }
  // unbzip2-stream is a classic (through) stream: piped into a PassThrough it gets backpressure (classic
  // pipe pauses it) and async iteration; its errors are forwarded, since pipe() does not.
  const bz = raw.pipe(unbzip2());
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  bz.on('error', (e: Error) => out.destroy(e));
  return { stream: forward(raw, bz.pipe(out)), bytes: size, decoder: 'unbzip2-stream' };
}

/** A read error of the file itself (permissions, a vanished file) surfaces through the decompressed stream. */
function forward(raw: Readable, stream: Readable): Readable {
  raw.on('error', (e) => stream.destroy(e));
  return stream;
}
