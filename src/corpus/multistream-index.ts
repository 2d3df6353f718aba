/**
 * The index Wikimedia publishes beside a multistream dump (`...-multistream-index.txt.bz2`): one line a
 * page, `byte offset:page id:title`, the offset being where the bzip2 stream holding the page starts
 * (streams of 100 pages; the first stream, before the first offset, holds the siteinfo header). Only the
 * distinct offsets are kept: ~230,000 numbers for English Wikipedia, not its 23 million lines.
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openDecompressed, type ByteRange } from './decompress.js';

/** Compressed bytes one worker task reads at most (a stream is never split): bounds the memory in flight. */
export const MAX_SHARE_BYTES = 1 << 20;

/**
 * The index file named after a dump: `x-multistream.xml.bz2` -> `x-multistream-index.txt.bz2`, and the
 * split form `x-multistream3.xml-p1p41242.bz2` -> `x-multistream-index3.txt-p1p41242.bz2`.
 */
export function siblingIndexName(file: string): string | undefined {
  const m = /^(.*-multistream)(\d*)\.xml(-p\d+p\d+)?\.bz2$/i.exec(file);
  return m ? `${m[1]}-index${m[2]}.txt${m[3] ?? ''}.bz2` : undefined;
}

/** The sibling index file when it exists. */
export function findSiblingIndex(file: string): string | undefined {
  const name = siblingIndexName(file);
  return name && existsSync(name) ? name : undefined;
}

function indexError(indexFile: string, line: number, problem: string): Error {
  return new Error(`${indexFile}:${line}: ${problem}; use the index published with this dump (or read the dump without it: --read-workers 0)`);
}

/**
 * Distinct stream offsets of an index, in file order. Each line is checked: a line that is not
 * `offset:page id:title`, an offset past the dump's end, or offsets going backwards are named by file and
 * line.
 */
export async function readStreamOffsets(indexFile: string, dumpFile: string, dumpSize: number): Promise<number[]> {
  let opened;
  try {
    opened = await openDecompressed(indexFile);
  } catch (e) {
    throw new Error(`${indexFile}: the multistream index cannot be read (${(e as Error).message}); pass the dump's index with --index-file, or --read-workers 0 to read the dump without one`);
  }
  const offsets: number[] = [];
  let line = 0;
  try {
    for await (const text of createInterface({ input: opened.stream, crlfDelay: Infinity })) {
      line++;
      if (!text.trim()) continue;
      const m = /^(\d+):(\d+):(.*)$/.exec(text);
      if (!m) throw indexError(indexFile, line, `not a multistream index line (expected "offset:page id:title"): ${JSON.stringify(text.slice(0, 80))}`);
      const offset = Number(m[1]);
      if (!Number.isSafeInteger(offset) || offset >= dumpSize) throw indexError(indexFile, line, `stream offset ${m[1]} lies past the end of ${dumpFile} (${dumpSize} bytes): this index belongs to another dump`);
      const last = offsets[offsets.length - 1];
      if (last !== undefined && offset < last) throw indexError(indexFile, line, `stream offset ${offset} comes after ${last}: offsets must not go down`);
      if (offset !== last) offsets.push(offset);
    }
  } catch (e) {
    opened.stream.destroy();
    if ((e as Error).message.startsWith(`${indexFile}:`)) throw e;
    throw new Error(`${indexFile}:${line + 1}: the multistream index cannot be read (${(e as Error).message.split('\n')[0]}); re-download it, or read the dump without it: --read-workers 0`, { cause: e });
  }
  if (offsets.length === 0) throw new Error(`${indexFile}: the multistream index lists no streams; use the index published with ${dumpFile}, or --read-workers 0`);
  return offsets;
}

/**
 * The file cut at stream boundaries into shares of at most MAX_SHARE_BYTES (or one stream, when a stream
 * is bigger), smaller on small files so that each of `workers` gets several. The first share starts at 0
 * (the siteinfo header), the last ends at the file's end (the closing tag).
 */
export function planShares(offsets: number[], size: number, workers: number): ByteRange[] {
  const bounds = [0, ...offsets.filter((o) => o > 0), size];
  const target = Math.max(1, Math.min(MAX_SHARE_BYTES, Math.floor(size / (Math.max(1, workers) * 4))));
  const shares: ByteRange[] = [];
  let start = 0;
  for (let i = 1; i < bounds.length; i++) {
    const prev = bounds[i - 1]!;
    // The next stream would take the share past the target: the share ends where that stream starts.
    if (bounds[i]! - start > target && prev > start) {
      shares.push({ start, end: prev });
      start = prev;
    }
  }
  if (size > start) shares.push({ start, end: size });
  return shares;
}
