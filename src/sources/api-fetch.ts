/**
 * A GET to a metadata API (Crossref, Europe PMC, arXiv, Open Library, OpenAlex) that answers JSON or XML,
 * behind the same SSRF guard as page fetches: every hop's host resolved and checked (ssrf-guard.ts), the
 * connection pinned to the checked address, redirects followed by hand and checked again, a timeout and a
 * size cap. http-fetch.ts reads only pages (HTML, text, PDF) and reports other content types; this is its
 * sibling for the APIs, until fetchPage takes an `accept` list of extra types (then this file goes).
 *
 * Politeness: one request at a time per API host, at least `minIntervalMs` apart (Crossref's and NCBI's
 * guidance; arXiv asks for 3 s), and a User-Agent carrying the contact e-mail when one is set.
 */
import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BadUrlError, BlockedAddressError, DnsError, pinnedLookup, resolveChecked, type GuardOptions } from './ssrf-guard.js';

export interface ApiFetchPolicy extends GuardOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Least time between two requests to one host (ms). */
  minIntervalMs?: number;
}

export type ApiResult =
  | { ok: true; url: string; finalUrl: string; httpStatus: number; contentType: string; body: string }
  /** `transient`: no answer (DNS, network, timeout): says nothing about the work, never cached. */
  | { ok: false; url: string; finalUrl: string; status: 'dead' | 'unreachable' | 'unsupported' | 'blocked'; reason: string; httpStatus?: number; transient?: boolean };

const DEFAULTS = { timeoutMs: 15_000, maxBytes: 8 * 1024 * 1024, maxRedirects: 3, userAgent: 'veracite-citation-audit/0.1', minIntervalMs: 0 };

/** Per host: when its next request may start (a chain, so concurrent callers queue). */
const hostQueues = new Map<string, Promise<void>>();

async function politeTurn(host: string, minIntervalMs: number): Promise<void> {
  if (minIntervalMs <= 0) return;
  const prev = hostQueues.get(host) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  hostQueues.set(host, prev.then(() => mine));
  await prev;
  setTimeout(release, minIntervalMs).unref?.();
}

export async function fetchApi(url: string, policy: ApiFetchPolicy = {}, accept = 'application/json'): Promise<ApiResult> {
  const p = { ...DEFAULTS, ...policy };
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, url, finalUrl: url, status: 'unsupported', reason: 'not a valid URL' };
  }
  let hops = 0;
  try {
    for (;;) {
      const target = await resolveChecked(current, p);
      await politeTurn(current.host.toLowerCase(), p.minIntervalMs);
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const mod = target.url.protocol === 'https:' ? https : http;
        const req = mod.request(target.url, { method: 'GET', agent: false, lookup: pinnedLookup(target), headers: { 'user-agent': p.userAgent, accept, 'accept-encoding': 'gzip, deflate, br' } });
        const timer = setTimeout(() => req.destroy(Object.assign(new Error(`timed out after ${p.timeoutMs} ms`), { code: 'ETIMEDOUT' })), p.timeoutMs);
        timer.unref();
        req.on('response', (r) => {
          r.once('close', () => clearTimeout(timer));
          resolve(r);
        });
        req.on('error', (e) => {
          clearTimeout(timer);
          reject(e);
        });
        req.end();
      });
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.destroy();
        if (++hops > p.maxRedirects) return { ok: false, url, finalUrl: current.href, status: 'unreachable', reason: `more than ${p.maxRedirects} redirects`, httpStatus: status };
        current = new URL(res.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        return { ok: false, url, finalUrl: current.href, status: status === 404 || status === 410 ? 'dead' : 'unreachable', reason: `HTTP ${status}`, httpStatus: status };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of decompressed(res)) {
        size += (chunk as Buffer).length;
        if (size > p.maxBytes) {
          res.destroy();
          return { ok: false, url, finalUrl: current.href, status: 'unsupported', reason: `answer larger than ${p.maxBytes} bytes`, httpStatus: status };
        }
        chunks.push(chunk as Buffer);
      }
      return { ok: true, url, finalUrl: current.href, httpStatus: status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') };
    }
  } catch (e) {
    if (e instanceof BlockedAddressError || e instanceof BadUrlError) return { ok: false, url, finalUrl: current.href, status: 'blocked', reason: e.message };
    if (e instanceof DnsError) return { ok: false, url, finalUrl: current.href, status: 'unreachable', reason: `could not reach ${current.host}: no DNS answer for ${e.hostname} (${e.code})`, transient: true };
    const err = e as NodeJS.ErrnoException;
    return { ok: false, url, finalUrl: current.href, status: 'unreachable', reason: `could not reach ${current.host}: ${err.code ?? ''} ${err.message ?? String(e)}`.replace(/\s+/g, ' '), transient: true };
  }
}

function decompressed(res: http.IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? '').toLowerCase().trim();
  if (enc === 'gzip' || enc === 'x-gzip') return res.pipe(createGunzip());
  if (enc === 'deflate') return res.pipe(createInflate());
  if (enc === 'br') return res.pipe(createBrotliDecompress());
  return res;
}
