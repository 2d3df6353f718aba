/**
 * Every provider answer is checked against a schema of the fields it reads (zod) before any is used: a
 * wrong type (`"extract": 42`), a null where a list was, a position or a length no real answer has, is the
 * provider's failure, named by its path ("malformed answer: results.0.abstract_inverted_index: ..."), and
 * never the process's (a crash, or minutes spent building a 4-billion-slot array). Fields the code does not
 * read are not checked: services add fields freely.
 */
import { z } from 'zod';
import type { ApiResult } from '../sources/api-fetch.js';

/** Results read from one answer: more is not a page of search results. */
export const MAX_RESULTS = 100;
/** Words in one abstract (OpenAlex's inverted index): real ones have a few hundred. */
export const MAX_ABSTRACT_WORDS = 20_000;
/** Characters in one text field (a title, a snippet, an abstract, an article's text). */
export const MAX_TEXT_CHARS = 2_000_000;

/** A text field as APIs send them: absent, null, or a string of sane length. */
export const text = () => z.string().max(MAX_TEXT_CHARS, { error: `longer than ${MAX_TEXT_CHARS} characters` }).nullish();

/** A list of results: its length is checked before any item is (a million items are refused at once, not read). */
export const results = <T extends z.ZodType>(item: T) => z.array(z.unknown()).max(MAX_RESULTS, { error: `more than ${MAX_RESULTS} results` }).pipe(z.array(item));

/** The answer as the schema has it, or an Error naming the first field that is wrong. */
export function checked<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
  const r = schema.safeParse(answer);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw new Error(`malformed answer: ${where}: ${issue.message}`);
}

/** An answer that the service gave but that is an error: `retryAfterMs` when it says to ask again later. */
export class AnswerError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AnswerError';
  }
}

/** The body as JSON; an HTML page (a captcha, a login wall, an error page) is named as such. */
export function parseJsonBody(res: Pick<Extract<ApiResult, { ok: true }>, 'url' | 'contentType' | 'body'>): unknown {
  const head = res.body.trimStart().slice(0, 200).toLowerCase();
  if (/text\/html/i.test(res.contentType) || head.startsWith('<!doctype') || head.startsWith('<html')) {
    throw new Error(`${new URL(res.url).host} answered an HTML page where JSON was expected (an error page, a login or a bot check?)`);
  }
  try {
    return JSON.parse(res.body);
  } catch (e) {
    throw new Error(`unreadable answer from ${new URL(res.url).host}: not JSON (${(e as Error).message})`);
  }
}

/** "127.0.0.1:8080 answered HTTP 500" for an HTTP status, else the fetcher's reason ("could not reach ..."). */
export function failureText(res: Extract<ApiResult, { ok: false }>): string {
  return /^HTTP \d/.test(res.reason) ? `${new URL(res.url).host} answered ${res.reason}` : res.reason;
}
