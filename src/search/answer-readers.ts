/**
 * Every provider answer is read by one named reader: JSON parsed, checked against the provider's schema and
 * error conventions, and turned into hits (abstracts rebuilt, markup stripped). Named, not passed as a
 * closure, so that the reading can run in a worker thread (answer-pool.ts): an answer of up to
 * SEARCH_MAX_BYTES (4 MB) took ~440 ms of one core to read (160 ms JSON.parse, the rest checking and
 * rebuilding 10 abstracts of 20,000 words), which on the server's event loop held every other request.
 * Readers are pure: (answer, meta, context) -> a value that survives structured cloning.
 */
import { AnswerError, parseJsonBody } from './answer-check.js';
import { readBraveWeb } from './providers/brave.js';
import { readCrossrefWorks } from './providers/crossref.js';
import { readEuropePmcSearch } from './providers/europepmc.js';
import { readOpenAlexWorks } from './providers/openalex.js';
import { readSearxngSearch } from './providers/searxng.js';
import { readWikipediaExtract, readWikipediaSearch } from './providers/wikipedia.js';
import type { AnswerMeta, ReaderContext, ReaderName } from './types.js';

export const ANSWER_READERS = {
  'openalex.works': readOpenAlexWorks,
  'crossref.works': readCrossrefWorks,
  'europepmc.search': readEuropePmcSearch,
  'searxng.search': readSearxngSearch,
  'brave.web': readBraveWeb,
  'wikipedia.search': readWikipediaSearch,
  'wikipedia.extract': readWikipediaExtract,
} as const satisfies Record<ReaderName, (a: unknown, meta: AnswerMeta, ctx: ReaderContext) => unknown>;

/** One answer to read: the body as received (or replayed from the cache) and what the reader needs. */
export interface AnswerTask {
  reader: ReaderName;
  url: string;
  contentType: string;
  body: string;
  meta: AnswerMeta;
  ctx: ReaderContext;
}

/** A reader's outcome as plain data (an Error's class does not cross a worker boundary; `retryAfterMs` must). */
export type AnswerOutcome = { ok: true; value: unknown } | { ok: false; message: string; retryAfterMs?: number };

export function readAnswer(t: AnswerTask): AnswerOutcome {
  const reader = ANSWER_READERS[t.reader] as (a: unknown, meta: AnswerMeta, ctx: ReaderContext) => unknown;
  if (!reader) return { ok: false, message: `no reader "${String(t.reader)}"` };
  try {
    return { ok: true, value: reader(parseJsonBody(t), t.meta, t.ctx) };
  } catch (e) {
    const err = e as Error;
    return { ok: false, message: err.message ?? String(e), ...(err instanceof AnswerError && err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}) };
  }
}
