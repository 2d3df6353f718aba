/**
 * Errors that map to an HTTP status. Route code throws them; the app's error handler (app.ts) turns
 * every error, ours or fastify's, into the same JSON body `{ error, message, issues? }` so clients
 * (and the web page) read one shape.
 */
import type { z } from 'zod';

export interface ErrorIssue {
  /** Dotted path of the offending field, e.g. "source.url" or "claim"; "" for the whole body. */
  path: string;
  message: string;
  code?: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/**
 * zod issues -> our issues. A union that failed in every branch is reported through its branches'
 * issues (prefixed by the union's path), so `source: {}` says which fields `source` needed rather than
 * just "Invalid input".
 */
export function issuesOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): ErrorIssue[] {
  const out: ErrorIssue[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && 'errors' in issue && Array.isArray(issue.errors) && issue.errors.length) {
      for (const branch of issue.errors as { path: PropertyKey[]; message: string; code: string }[][]) {
        for (const b of branch) out.push({ path: pathOf([...path, ...b.path]), message: b.message, code: b.code });
      }
      continue;
    }
    out.push({ path: pathOf(path), message: issue.message, code: issue.code });
  }
  return out;
}

export class ValidationError extends HttpError {
  constructor(where: 'body' | 'query' | 'params', issues: ErrorIssue[]) {
    const first = issues[0];
    const message = first ? `invalid ${where}: ${first.path || '(root)'}: ${first.message}` : `invalid ${where}`;
    super(400, 'invalid_request', message, issues);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

/** The queue is full: the client should come back later (Retry-After, in seconds). */
export class OverloadedError extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, 'overloaded', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class TimeoutError extends HttpError {
  constructor(ms: number) {
    super(504, 'timeout', `the request did not finish within ${ms} ms`);
  }
}

/**
 * The client went away before its answer (nginx's 499): the work stops; nothing is logged as a server
 * error, and the answer goes nowhere.
 */
export class ClientClosedError extends HttpError {
  constructor() {
    super(499, 'client_closed', 'the client closed the connection before the answer');
  }
}

export class ShuttingDownError extends HttpError {
  constructor() {
    super(503, 'shutting_down', 'the server is shutting down', undefined, { 'retry-after': '5', connection: 'close' });
  }
}

/**
 * A document that cannot be read within the parse budgets (util/worker-pool.ts BudgetError, a wikitext
 * nesting limit, a PDF limit) -> 413 when it is too large (memory, inflation, text), 422 when it is too
 * slow or too deeply nested to read. The message names the limit and the flag that raises it.
 */
export function documentLimitError(e: unknown): HttpError | undefined {
  const err = e as Error & { limit?: string };
  if (err?.name === 'BudgetError') return new HttpError(err.limit === 'memory' ? 413 : 422, 'document_over_budget', err.message);
  if (err?.name === 'PdfLimitError') return new HttpError(413, 'document_over_budget', err.message);
  if (err?.name === 'WikitextLimitError') return new HttpError(422, 'document_over_budget', err.message);
  return undefined;
}
