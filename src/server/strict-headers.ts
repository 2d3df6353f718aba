/**
 * Headers a request may carry only once, and readable answers to requests Node's parser refuses.
 *
 * - **Host, Content-Length, Authorization: once each.** Node keeps the first of two Host or Authorization
 *   lines and drops the second, so `Host: 127.0.0.1` then `Host: evil.example` passed the Host allowlist on
 *   the first while a proxy or a log in front might act on the second. RFC 9112 section 3.2 says a request
 *   with more than one Host field gets 400; two Content-Lengths make the body's end ambiguous (request
 *   smuggling), and two tokens are no single credential. The check reads `rawHeaders`, the lines as they
 *   came, because the parsed `headers` object has already merged or dropped them.
 * - **Parse errors** (a second Content-Length, Content-Length with Transfer-Encoding, a bad header name...)
 *   never reach fastify's routing: Node's parser refuses them and fastify answers a bare "Client Error".
 *   `clientErrorHandler` answers in the API's error shape instead, with the parser's reason.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './errors.js';

/** Header fields a request may carry at most once (lower case). */
export const SINGLE_HEADERS: readonly string[] = ['host', 'content-length', 'authorization'];

/** The first of `SINGLE_HEADERS` that appears more than once in `rawHeaders` ([name, value, name, value...]). */
export function duplicateHeader(rawHeaders: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!SINGLE_HEADERS.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

const DISPLAY: Record<string, string> = { host: 'Host', 'content-length': 'Content-Length', authorization: 'Authorization' };

export class DuplicateHeaderError extends HttpError {
  constructor(name: string) {
    const shown = DISPLAY[name] ?? name;
    super(400, 'invalid_request', `the request has more than one ${shown} header; send it once (RFC 9112: a request with two Host, Content-Length or Authorization fields is refused, as the recipients could read different ones)`);
  }
}

/** Throws `DuplicateHeaderError` for a request that repeats a `SINGLE_HEADERS` field. */
export function refuseDuplicateHeaders(rawHeaders: readonly string[]): void {
  const dup = duplicateHeader(rawHeaders);
  if (dup !== undefined) throw new DuplicateHeaderError(dup);
}

interface ClientError extends Error {
  code?: string;
  /** llhttp's explanation, e.g. "Duplicate Content-Length". */
  reason?: string;
}

/**
 * fastify's `clientErrorHandler`: a request Node's HTTP parser refused (or one that took too long to
 * arrive) gets our `{ error, message }` body, saying what was wrong, and the connection is closed (the
 * parser cannot tell where the next request would start).
 */
export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let body: { error: string; message: string };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    body = { error: 'timeout', message: 'the request did not arrive in time; send it again' };
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    body = { error: 'headers_too_large', message: 'the request headers are larger than the server accepts (16 KiB); send fewer or shorter headers' };
  } else {
    const reason = err.reason ?? err.message;
    const hint = /content-length|transfer-encoding/i.test(reason) ? '; send one Content-Length, or Transfer-Encoding: chunked, not both' : '';
    body = { error: 'invalid_request', message: `malformed HTTP request: ${reason}${err.code ? ` (${err.code})` : ''}${hint}` };
  }
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy();
}
