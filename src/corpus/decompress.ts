/**
 * A file's bytes, decompressed by its name: `.bz2` through unbzip2-stream (which reads concatenated bzip2
 * streams, so Wikimedia's multistream dumps read as one file), `.gz` through node:zlib (concatenated gzip
 * members too), anything else as is. `onBytes` reports compressed bytes read, for progress and ETA.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2 from 'unbzip2-stream';

export interface DecompressedFile {
  stream: Readable;
  /** Size of the file on disk (compressed). */
  bytes: number;
}

export async function openDecompressed(file: string, onBytes?: (read: number, total: number) => void): Promise<DecompressedFile> {
  const { size } = await stat(file);
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  let read = 0;
  if (onBytes) {
    raw.on('data', (chunk: Buffer | string) => {
      read += chunk.length;
      onBytes(read, size);
    });
  }
  const lower = file.toLowerCase();
  let stream: Readable = raw;
  // unbzip2-stream is a classic (through) stream: piped into a PassThrough it gets backpressure (classic
  // pipe pauses it) and async iteration; its errors are forwarded, since pipe() does not.
  if (lower.endsWith('.bz2')) {
    const bz = raw.pipe(unbzip2());
    const out = new PassThrough({ highWaterMark: 1 << 20 });
    bz.on('error', (e: Error) => out.destroy(e));
    stream = bz.pipe(out);
  }
  else if (lower.endsWith('.gz')) stream = raw.pipe(createGunzip());
  // A read error of the file itself (permissions, a vanished file) surfaces through the stream read.
  if (stream !== raw) raw.on('error', (e) => stream.destroy(e));
  return { stream, bytes: size };
}
