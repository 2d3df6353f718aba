/**
 * Cross-origin access for the wiki gadget (`src/wiki-gadget/`): a page on an origin the operator named
 * with `--allow-origin https://en.wikipedia.org` may call the API from the browser.
 *
 * - **Exact origins only.** Each allowed origin is `scheme://host[:port]` (no path, no wildcard); "*" and
 *   "null" are refused when the server starts. A request whose Origin is not on the list gets no CORS
 *   header at all, so the browser keeps the answer from that page.
 * - **Credentials by token, never by cookie.** Allowing an origin needs a token (any script on a wiki
 *   page, other people's gadgets included, could otherwise call the API). The gadget sends `Authorization: Bearer <token>`; the
 *   server never sends Access-Control-Allow-Credentials, so a cross-origin page can never ride on the web
 *   page's session cookie (which is SameSite=Strict as well).
 * - **Preflight.** Browsers send the preflight (OPTIONS) without credentials, so it cannot carry the token:
 *   one OPTIONS route, registered public (`PUBLIC_ROUTE`) when origins are allowed, answers it (204) for an
 *   allowed origin and refuses it (403, no CORS header) otherwise. It runs no API handler; the actual
 *   request that follows needs the token as every request does (exposure.ts). The Host check still applies.
 * - **Vary: Origin** on every response once origins are allowed, so a cache never serves one origin's
 *   answer to another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from './exposure.js';
import { HttpError } from './errors.js';

const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = 'authorization, content-type, accept, last-event-id';
/** Headers the gadget may read besides the CORS-safelisted ones (Retry-After of a 503). */
const EXPOSED_HEADERS = 'retry-after';
const PREFLIGHT_MAX_AGE_S = 600;

export class CorsOriginError extends Error {
  override readonly name = 'CorsOriginError';
}

/**
 * An `--allow-origin` value as browsers send Origin: "https://en.wikipedia.org" (lower-case scheme and
 * host, default port dropped). Throws CorsOriginError for anything that is not one exact http(s) origin.
 */
export function normaliseOrigin(value: string): string {
  const v = value.trim();
  if (v === '*' || v.toLowerCase() === 'null') throw new CorsOriginError(`--allow-origin ${v}: name each origin exactly (e.g. https://en.wikipedia.org); "*" and "null" are never allowed`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new CorsOriginError(`--allow-origin ${JSON.stringify(v)} is not an origin: give scheme and host, e.g. https://en.wikipedia.org`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new CorsOriginError(`--allow-origin ${v}: only http(s) origins`);
  if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || /\*/.test(v) || !/^https?:\/\/[^/]+\/?$/i.test(v)) {
    throw new CorsOriginError(`--allow-origin ${v}: an origin is scheme://host[:port] only, without a path, query or wildcard (e.g. https://en.wikipedia.org)`);
  }
  return u.origin;
}

/** The allowed origins, normalised; throws CorsOriginError on the first bad one. */
export function parseAllowedOrigins(values: readonly string[]): Set<string> {
  return new Set(values.map(normaliseOrigin));
}

class PreflightRefusedError extends HttpError {
  constructor(origin: string | undefined) {
    super(
      403,
      'origin_not_allowed',
      origin
        ? `origin ${JSON.stringify(origin.slice(0, 200))} is not allowed to call this server from a browser; if it is yours, start the server with --allow-origin ${origin.slice(0, 200)}`
        : 'a CORS preflight needs Origin and Access-Control-Request-Method headers',
    );
  }
}

/**
 * CORS headers for the allowed origins and the preflight route. Register before the exposure guards, so
 * that a refusal there (401 wrong token, 403 Host) still reaches the gadget as a readable error. The
 * headers go on the raw response, so the hijacked SSE stream (sse.ts) carries them too.
 */
export function registerCors(app: FastifyInstance, o: { allowOrigins: readonly string[]; token: string | undefined }): void {
  const allowed = parseAllowedOrigins(o.allowOrigins);
  if (allowed.size === 0) return; // same-origin only, as before: no header, no OPTIONS route
  // Any script of an allowed origin (a wiki runs other people's gadgets too) could call the API: only with the token.
  if (!o.token) throw new CorsOriginError(`--allow-origin needs a token (--token or VERACITE_TOKEN): the pages of ${[...allowed].join(', ')} may then call the API only with it`);
  const originOf = (req: FastifyRequest): string | undefined => {
    const o = req.headers.origin;
    return typeof o === 'string' && allowed.has(o) ? o : undefined;
  };

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    reply.raw.setHeader('vary', 'Origin');
    const origin = originOf(req);
    if (!origin || req.method === 'OPTIONS') return;
    reply.raw.setHeader('access-control-allow-origin', origin);
    reply.raw.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  });

  app.options('/*', { config: PUBLIC_ROUTE }, async (req, reply) => {
    const origin = originOf(req);
    const method = req.headers['access-control-request-method'];
    if (!origin || typeof method !== 'string') throw new PreflightRefusedError(typeof req.headers.origin === 'string' ? req.headers.origin : undefined);
    reply.raw.setHeader('access-control-allow-origin', origin);
    reply.raw.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    reply.raw.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    reply.raw.setHeader('access-control-max-age', String(PREFLIGHT_MAX_AGE_S));
    // Chromium's Private Network Access: a public page (the wiki) calling a server on loopback asks first.
    if (req.headers['access-control-request-private-network'] === 'true') reply.raw.setHeader('access-control-allow-private-network', 'true');
    return reply.code(204).send();
  });
}
