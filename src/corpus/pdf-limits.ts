/**
 * Limits checked on a PDF's bytes before pdf.js decompresses anything. A "PDF bomb" is a small file whose
 * Flate streams inflate to hundreds of MB (408 kB -> 400 MB took 990 MB of memory in the CLI): pdf.js
 * inflates into ArrayBuffers, which a worker's heap limit does not bound. Here every Flate stream is
 * inflated once with zlib's output capped at what is left of the budget, so the check itself never holds
 * more than the budget, and a file over it is refused before pdf.js sees it.
 *
 * Image streams are not counted: text extraction never decodes them, and scanned pages carry big ones.
 */
import { inflateSync } from 'node:zlib';

export interface PdfLimits {
  /** Decompressed bytes of all non-image Flate streams, at most. */
  maxInflatedBytes: number;
}

export const DEFAULT_PDF_MAX_INFLATED_BYTES = 128 * 1024 * 1024;
/** Extracted text of one PDF, at most (pdf-text.ts, PdfReadOptions.maxTextChars). */
export const DEFAULT_PDF_MAX_TEXT_CHARS = 20_000_000;

/** A PDF over a limit: the message names the figure and the flag that raises it. */
export class PdfLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfLimitError';
  }
}

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');

/**
 * Total decompressed size of the non-image Flate streams, stopping (over: true) as soon as it passes
 * `limit`. Streams that do not inflate (damaged, or another filter) count as their raw size.
 */
export function inflatedSize(bytes: Uint8Array, limit: number): { bytes: number; over: boolean } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  for (;;) {
    const k = buf.indexOf(STREAM, at);
    if (k < 0) break;
    at = k + STREAM.length;
    // "endstream" contains "stream": only a keyword followed by an end of line opens a stream
    if (k >= 3 && buf.toString('latin1', k - 3, k) === 'end') continue;
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a) continue;
    start++;
    const end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) break;
    at = end + ENDSTREAM.length;
    const dict = buf.toString('latin1', Math.max(0, k - 1024), k);
    const own = dict.slice(dict.lastIndexOf('obj') + 1);
    if (/\/Subtype\s*\/Image/.test(own)) continue;
    const raw = buf.subarray(start, end);
    if (!/\/FlateDecode|\/Fl\b/.test(own)) {
      total += raw.length;
    } else {
      try {
        total += inflateSync(raw, { maxOutputLength: Math.max(1, limit - total + 1), finishFlush: 2 /* Z_SYNC_FLUSH: a stream cut short still counts what it gives */ }).length;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { bytes: limit + 1, over: true };
        total += raw.length;
      }
    }
    if (total > limit) return { bytes: total, over: true };
  }
  return { bytes: total, over: false };
}

/** Refuses a PDF whose streams inflate past the limit (PdfLimitError naming it and `flag`). */
export function checkPdfLimits(bytes: Uint8Array, limits: PdfLimits, flag = '--pdf-inflate-limit'): void {
  const r = inflatedSize(bytes, limits.maxInflatedBytes);
  if (r.over) {
    throw new PdfLimitError(
      `the PDF's compressed streams inflate to more than ${Math.round(limits.maxInflatedBytes / 1024 / 1024)} MB (${Math.round(bytes.byteLength / 1024)} kB on disk): refused as a likely decompression bomb; raise the limit with ${flag} if the file is genuine`,
    );
  }
}
