/**
 * Lines of a stream, each held only up to a byte budget. `readline` holds a line whole until its newline, so
 * one damaged or hostile line (a CirrusSearch document line of gigabytes, or a decompression bomb with no
 * newline) would take the process's heap. Here a line over the budget is dropped as it streams by (counted,
 * never held: decompression costs time, not memory) and reported by its line number and size, so the reader
 * can name it as a bad record and go on with the next line. Lines end at "\n" ("\r\n" too); bytes are UTF-8.
 */
import { StringDecoder } from 'node:string_decoder';

export type BoundedLine = { line: number; text: string } | { line: number; overBytes: number };

export async function* boundedLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<BoundedLine> {
  const decoder = new StringDecoder('utf8');
  let parts: Buffer[] = [];
  let held = 0;
  let over = false;
  let size = 0;
  let line = 0;
  const end = (): BoundedLine => {
    line++;
    let out: BoundedLine;
    if (over) out = { line, overBytes: size };
    else {
      let text = decoder.write(Buffer.concat(parts, held)) + decoder.end();
      if (text.endsWith('\r')) text = text.slice(0, -1);
      out = { line, text };
    }
    parts = [];
    held = 0;
    over = false;
    size = 0;
    return out;
  };
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    while (from < buf.length) {
      const nl = buf.indexOf(10, from);
      const piece = buf.subarray(from, nl < 0 ? buf.length : nl);
      size += piece.length;
      if (!over) {
        if (held + piece.length > maxBytes) {
          over = true;
          parts = [];
          held = 0;
        } else if (piece.length) {
          // Copied: the stream may reuse its chunk's memory.
          parts.push(Buffer.from(piece));
          held += piece.length;
        }
      }
      if (nl < 0) break;
      yield end();
      from = nl + 1;
    }
  }
  // A last line without its newline (held and over both imply size > 0).
  if (size > 0) yield end();
}
