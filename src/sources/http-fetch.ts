/**
 * Live fetch of a cited page, defensively: only when the user opts in (`--fetch`), through the SSRF guard
 * on every hop, redirects followed by hand (so each hop is checked) up to a limit, a per-request and a
 * total timeout, a size cap on the decompressed body, and only HTML / plain text accepted, plus PDFs (as
 * bytes, by Content-Type or by their `%PDF-` signature) when the caller reads them (`pdf: true`); other
 * types, and a body declared as text that is binary data, are reported, not parsed. A server that gave no
 * answer (DNS, network, timeout) is told apart from one that answered 404/410: see FetchFailureStatus.
 *
 * node:http(s) rather than global fetch: the pinned `lookup` (connect to the address we checked) is a plain
 * request option there, and undici's own Agent is not importable without adding a dependency.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { notTextReason } from '../util/not-text.js';
import { BadUrlError, BlockedAddressError, DnsError, pinnedLookup, resolveChecked, type CheckedTarget, type GuardOptions } from './ssrf-guard.js';

export interface FetchPolicy extends GuardOptions {
  /** Per request (one redirect hop), headers and body (default 15 s). */
  timeoutMs?: number;
  /** Whole fetch including redirects (default 30 s). */
  totalTimeoutMs?: number;
  /** Largest decompressed body read (default 5 MiB); larger pages are reported, not truncated. */
  maxBytes?: number;
  /** Redirect hops followed (default 5). */
  maxRedirects?: number;
  userAgent?: string;
  /** Return PDFs as bytes (`kind: 'pdf'`) instead of reporting them unsupported (default false). */
  pdf?: boolean;
  /** Largest PDF read when `pdf` is on (default 32 MiB): reports are often larger than web pages. */
  maxPdfBytes?: number;
  /**
   * An API's Accept header (JSON, XML): the answer is then read as text whatever type it declares (still
   * size-capped, binary refused), so the metadata APIs (api-fetch.ts) take this same guarded fetch.
   */
  accept?: string;
  /**
   * Extra request headers (a search API's key: Brave's X-Subscription-Token). Sent only to the host of the
   * URL asked for, never to a host a redirect leads to, so a key cannot leak to a third party.
   */
  headers?: Readonly<Record<string, string>>;
}

export const DEFAULT_FETCH_POLICY = {
  timeoutMs: 15_000,
  totalTimeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  pdf: false,
  maxPdfBytes: 32 * 1024 * 1024,
  userAgent: 'veracite-citation-audit/0.1 (+https://github.com/; checks Wikipedia citations)',
} as const;

/**
 * Why a page gave no text. `dead` = the server answered that the page is gone (HTTP 404/410). A failure
 * without an answer (no DNS answer, no route, a refused or reset connection, a timeout) is `unreachable`
 * and `transient`: it says nothing about the page (offline looks like that), so it is not cached.
 */
export type FetchFailureStatus = 'dead' | 'unreachable' | 'unsupported' | 'blocked';

/** Socket errors that mean the server was not reached (or stopped answering), whatever the page. */
const NETWORK_ERRORS: Record<string, string> = {
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host down',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
  EAI_AGAIN: 'temporary DNS failure',
};

export type FetchResult =
  | { ok: true; url: string; finalUrl: string; httpStatus: number; contentType: string; kind: 'html' | 'text'; body: string; redirects: string[]; retryAfter?: string }
  /** Only with `pdf: true`; `body` is '' (the text is extracted by pdf-text.ts, page by page). */
  | { ok: true; url: string; finalUrl: string; httpStatus: number; contentType: string; kind: 'pdf'; body: ''; bytes: Uint8Array; redirects: string[] }
  | {
      ok: false;
      url: string;
      finalUrl: string;
      status: FetchFailureStatus;
      reason: string;
      httpStatus?: number;
      contentType?: string;
      redirects: string[];
      /** No answer from the server (DNS, network, timeout): offline looks like this. Not to be cached. */
      transient?: true;
      /** DNS said the name does not exist (ENOTFOUND / no address); offline, it says so too. */
      noSuchName?: true;
      /** An HTTP error's Retry-After header as sent (429 / 503: when to ask again). */
      retryAfter?: string;
    };

class FetchFailure extends Error {
  constructor(
    readonly status: FetchFailureStatus,
    readonly reason: string,
    readonly httpStatus?: number,
    readonly contentType?: string,
    readonly transient = false,
    readonly noSuchName = false,
    readonly retryAfter?: string,
  ) {
    super(reason);
  }
}

/** A failure without an answer from the server: "could not reach <host>: ...". */
function notReached(host: string, why: string, noSuchName = false): FetchFailure {
  return new FetchFailure('unreachable', `could not reach ${host}: ${why}`, undefined, undefined, true, noSuchName);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchPage(url: string, policy: FetchPolicy = {}): Promise<FetchResult> {
  const p = { ...DEFAULT_FETCH_POLICY, ...policy };
  const deadline = Date.now() + p.totalTimeoutMs;
  const redirects: string[] = [];
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, url, finalUrl: url, status: 'unsupported', reason: 'not a valid URL', redirects };
  }
  current.hash = '';
  const firstHost = current.host;
  try {
    for (;;) {
      const target = await resolveChecked(current, p);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw notReached(current.host, `timed out after ${p.totalTimeoutMs} ms (total)`);
      const res = await requestOnce(target, current.host === firstHost ? p : { ...p, headers: undefined }, Math.min(p.timeoutMs, remaining));
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = res.headers.location;
        res.destroy();
        if (!location) throw new FetchFailure('unreachable', `HTTP ${status} without Location`, status);
        if (redirects.length >= p.maxRedirects) throw new FetchFailure('unreachable', `more than ${p.maxRedirects} redirects`, status);
        const next = new URL(location, current);
        next.hash = '';
        redirects.push(next.href);
        current = next;
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        const dead = status === 404 || status === 410;
        const retryAfter = res.headers['retry-after'];
        throw new FetchFailure(dead ? 'dead' : 'unreachable', `HTTP ${status}`, status, undefined, false, false, typeof retryAfter === 'string' ? retryAfter : undefined);
      }
      const contentType = String(res.headers['content-type'] ?? '');
      const declared = p.accept ? 'text' : kindOf(contentType);
      if (declared === 'unsupported' || (declared === 'pdf' && !p.pdf)) {
        res.destroy();
        throw new FetchFailure('unsupported', unsupportedReason(contentType), status, contentType);
      }
      // An undeclared type may turn out to be a PDF: allow the PDF cap until the bytes say otherwise.
      const cap = declared === 'pdf' || (declared === undefined && p.pdf) ? Math.max(p.maxBytes, p.maxPdfBytes) : p.maxBytes;
      const length = Number(res.headers['content-length']);
      if (Number.isFinite(length) && length > cap && !res.headers['content-encoding']) {
        res.destroy();
        throw new FetchFailure('unsupported', `${declared === 'pdf' ? 'PDF' : 'page'} larger than ${cap} bytes (${length})`, status, contentType);
      }
      const body = await readCapped(res, cap);
      const kind = declared === 'pdf' ? (isPdf(body) ? 'pdf' : 'unsupported') : (declared ?? sniff(body));
      if (kind === 'pdf' && p.pdf) return { ok: true, url, finalUrl: current.href, httpStatus: status, contentType, kind, body: '', bytes: body, redirects };
      if (kind === 'unsupported' || kind === 'pdf') throw new FetchFailure('unsupported', isPdf(body) ? 'PDF documents are not supported' : declared === 'pdf' ? 'declared a PDF, but the body is not one' : 'unrecognised content', status, contentType);
      if (body.length > p.maxBytes) throw new FetchFailure('unsupported', `page larger than ${p.maxBytes} bytes`, status, contentType);
      // Declared (or sniffed as) text, but binary data: not read as text (util/not-text.ts). UTF-16 pages have NUL bytes by design.
      const binary = /charset=["']?(utf-16|ucs-2)/i.test(contentType) ? undefined : notTextReason(body);
      if (binary) throw new FetchFailure('unsupported', `unreadable: not text (${binary})`, status, contentType);
      const retryAfter = res.headers['retry-after'];
      // MediaWiki sends maxlag errors as HTTP 200 with Retry-After: the API reader waits on it.
      return { ok: true, url, finalUrl: current.href, httpStatus: status, contentType, kind, body: decode(body, contentType), redirects, ...(typeof retryAfter === 'string' ? { retryAfter } : {}) };
    }
  } catch (e) {
    const f = toFailure(e, current.host);
    const out: FetchResult = { ok: false, url, finalUrl: current.href, status: f.status, reason: f.reason, redirects };
    if (f.httpStatus !== undefined) out.httpStatus = f.httpStatus;
    if (f.contentType) out.contentType = f.contentType;
    if (f.transient) out.transient = true;
    if (f.noSuchName) out.noSuchName = true;
    if (f.retryAfter !== undefined) out.retryAfter = f.retryAfter;
    return out;
  }
}

function toFailure(e: unknown, host: string): FetchFailure {
  if (e instanceof FetchFailure) return e;
  if (e instanceof BlockedAddressError) return new FetchFailure('blocked', e.message);
  if (e instanceof BadUrlError) return new FetchFailure('unsupported', e.message);
  // A name that does not resolve is what a site gone with its domain looks like, and also what no network
  // looks like (getaddrinfo answers ENOTFOUND offline): never a dead link on its own (resolve-source.ts
  // calls it dead only when another server, the archive, answered on the same run).
  if (e instanceof DnsError) {
    const missing = e.code === 'ENOTFOUND' || e.code === 'NODATA';
    return notReached(host, `no DNS answer for ${e.hostname} (${e.code}${missing ? ': offline, or no such name' : ''})`, missing);
  }
  const err = e as NodeJS.ErrnoException;
  if (err.code && NETWORK_ERRORS[err.code]) return notReached(host, `${NETWORK_ERRORS[err.code]} (${err.code})`);
  return new FetchFailure('unreachable', err.code ? `${err.code}: ${err.message}` : err.message ?? String(e));
}

function requestOnce(target: CheckedTarget, p: Required<Pick<FetchPolicy, 'userAgent'>> & Pick<FetchPolicy, 'accept' | 'headers'>, timeoutMs: number): Promise<IncomingMessage> {
  const host = target.url.host;
  const mod = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(target.url, {
      method: 'GET',
      // No pooled sockets: every connection goes through the pinned lookup of this hop.
      agent: false,
      lookup: pinnedLookup(target),
      headers: {
        ...p.headers,
        'user-agent': p.userAgent,
        accept: p.accept ?? 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    let response: IncomingMessage | undefined;
    const timer = setTimeout(() => {
      const err = notReached(host, `timed out after ${timeoutMs} ms`);
      response?.destroy(err);
      req.destroy(err);
    }, timeoutMs);
    timer.unref();
    req.on('response', (res) => {
      response = res;
      // The body must arrive within the same budget: the timer is cleared only when the response ends.
      res.once('close', () => clearTimeout(timer));
      resolve(res);
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end();
  });
}

function decompressed(res: IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? '').toLowerCase().trim();
  if (enc === 'gzip' || enc === 'x-gzip') return res.pipe(createGunzip());
  if (enc === 'deflate') return res.pipe(createInflate());
  if (enc === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

/** Reads the decompressed body, failing as soon as it passes `maxBytes` (a compressed bomb never inflates fully). */
function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const stream = decompressed(res);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (e: Error) => {
      // Destroying the response re-enters here through 'aborted'; the first reason is the real one.
      if (settled) return;
      settled = true;
      // Our own timeout destroys the response with its reason; report that rather than the 'aborted' it causes.
      const why = res.errored instanceof FetchFailure ? res.errored : e;
      reject(why);
      res.destroy();
      stream.destroy();
    };
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) fail(new FetchFailure('unsupported', `page larger than ${maxBytes} bytes`, res.statusCode));
      else chunks.push(c);
    });
    stream.on('end', () => {
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    stream.on('error', (e) => fail(e instanceof FetchFailure ? e : new FetchFailure('unreachable', `body: ${e.message}`)));
    // The connection broke mid-page: transient, like a timeout (not cached).
    // A destroyed response (our timeout) closes without 'end'.
    res.on('error', (e) => fail(e instanceof FetchFailure ? e : new FetchFailure('unreachable', e.message, undefined, undefined, true)));
    res.on('aborted', () => fail(new FetchFailure('unreachable', 'connection closed before the page was complete', undefined, undefined, true)));
  });
}

/** html / text / pdf from the Content-Type, 'unsupported' for anything else, undefined when there is none. */
function kindOf(contentType: string): 'html' | 'text' | 'pdf' | 'unsupported' | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!type || type === 'application/octet-stream' || type === 'binary/octet-stream') return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/plain') return 'text';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  return 'unsupported';
}

/** The PDF signature may follow a few bytes of junk (the format allows it within the first 1024 bytes). */
function isPdf(body: Buffer): boolean {
  return body.subarray(0, 1024).includes('%PDF-', 0, 'latin1');
}

function unsupportedReason(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/pdf' ? 'PDF documents are not supported' : `unsupported content type ${type}`;
}

function sniff(body: Buffer): 'html' | 'text' | 'pdf' | 'unsupported' {
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (head.startsWith('%pdf-')) return 'pdf';
  if (head.startsWith('<')) return 'html';
  // Binary content has NUL bytes; text does not.
  return body.subarray(0, 1024).includes(0) ? 'unsupported' : 'text';
}

function decode(body: Buffer, contentType: string): string {
  const declared = /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
