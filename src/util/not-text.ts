/**
 * Is this input text at all? A binary file given where a page or an article is expected (an image, an
 * archive, an executable) must be refused, not read: decoded as UTF-8 it prints NUL and control bytes,
 * and the plain-text reader still finds "citations" in it. The rule reads the first few KB only:
 *   - a NUL byte is binary (no text encoding we read uses it; UTF-16 is not read);
 *   - otherwise, when control characters (but tab, newlines, form feed, escape) and invalid UTF-8
 *     sequences make up more than NOT_TEXT_SHARE of the sample, it is binary. A Latin-1 page has a few
 *     invalid sequences (its accented letters) and stays text; random bytes have about half.
 * A PDF is binary: callers that read PDFs test for one (`looksLikePdf`) before asking this.
 * Strings are checked the same way (JSON bodies: a NUL or control character, U+FFFD from a lossy decode).
 */

/** Bytes (or characters) of the input read by the rule. */
export const TEXT_SAMPLE_BYTES = 8192;
/** Share of control characters and invalid UTF-8 above which an input is not text. */
export const NOT_TEXT_SHARE = 0.3;

/** Control characters that text does contain: tab, line feed, vertical tab, form feed, carriage return, escape. */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

function isBadControl(code: number): boolean {
  return (code < 0x20 && !TEXT_CONTROLS.has(code)) || code === 0x7f;
}

/** Why `input` is not text, in a few words; undefined when it reads as text (an empty input does). */
export function notTextReason(input: Uint8Array | string): string | undefined {
  if (typeof input === 'string') return stringReason(input.slice(0, TEXT_SAMPLE_BYTES));
  const head = input.subarray(0, TEXT_SAMPLE_BYTES);
  if (head.includes(0)) return `NUL bytes in the first ${head.length} bytes: binary data`;
  // A multi-byte character cut at the end of the sample is not an error: `stream` leaves it pending.
  return stringReason(new TextDecoder('utf-8').decode(head, { stream: true }), head.length);
}

function stringReason(text: string, bytes?: number): string | undefined {
  if (text.includes('\u0000')) return 'NUL characters: binary data';
  let bad = 0;
  let total = 0;
  for (const ch of text) {
    total++;
    const code = ch.codePointAt(0)!;
    if (code === 0xfffd || isBadControl(code)) bad++;
  }
  if (total && bad / total > NOT_TEXT_SHARE) {
    const share = Math.round((100 * bad) / total);
    return `${share}% control characters or invalid UTF-8 in the first ${bytes !== undefined ? `${bytes} bytes` : `${total} characters`}: binary data`;
  }
  return undefined;
}

/** An input that is not text (exit code 65, EX_DATAERR, on the command line; 400 from the API). */
export class NotTextError extends Error {
  constructor(
    /** What was read: a file name, "stdin", a URL. */
    readonly what: string,
    /** notTextReason's answer. */
    readonly why: string,
  ) {
    super(`${what}: unreadable: not text (${why})`);
    this.name = 'NotTextError';
  }
}

/** Throws NotTextError when `input` is not text. */
export function assertText(input: Uint8Array | string, what: string): void {
  const why = notTextReason(input);
  if (why) throw new NotTextError(what, why);
}
