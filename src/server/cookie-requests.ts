/**
 * What a state-changing request authorized by the token cookie (rather than `Authorization: Bearer`) must
 * show: that it comes from this server's own page, and that its body is JSON.
 *
 * Why: SameSite=Strict keeps other *sites* from sending the cookie, but a site is a scheme and a
 * registrable domain, not a port: a page served from http://127.0.0.1:9999 (any local dev server, or a
 * notebook) is same-site with this server on 127.0.0.1:8080, so its requests here carry the cookie. Two
 * checks close that:
 * - **Origin.** Browsers send Origin on every POST; it must be this server's own origin (the scheme of the
 *   connection and the Host the request was sent to, ports included), or the browser must say
 *   `Sec-Fetch-Site: same-origin` (which a page cannot forge, and which also holds behind a TLS proxy that
 *   forwards plain HTTP here, where the schemes differ).
 * - **Content type.** The body must be `application/json`, which a page on another origin cannot send
 *   without a CORS preflight this server never grants; a form or a "simple" fetch sends text/plain,
 *   x-www-form-urlencoded or multipart, and is refused here rather than by the schema later.
 * Scripts and programs send the token as `Authorization: Bearer` and none of this applies to them.
 * The web page's own calls (src/web/api.js, compare.js) are same-origin JSON fetches and pass.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** Methods that change nothing (and routes here take no body on them). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const WHAT_TO_DO = 'the token cookie is honoured only for this server\'s own web page (a guard against cross-site request forgery); programs and other pages send "Authorization: Bearer <token>" instead';

export class CookieRequestRefused extends HttpError {
  constructor(detail: string) {
    super(403, 'cross_site_request', `${detail}; ${WHAT_TO_DO}`);
  }
}

/** "http://127.0.0.1:8080" for a request sent over http to Host 127.0.0.1:8080; undefined without a usable Host. */
export function ownOrigin(protocol: string, host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** Whether an Origin header names `own` (compared as URL origins: case and default ports normalised). */
export function sameOrigin(origin: string | undefined, own: string | undefined): boolean {
  if (!origin || !own || origin === 'null') return false;
  try {
    return new URL(origin).origin === own;
  } catch {
    return false;
  }
}

/** The media type of a Content-Type header, lower case, without parameters ("Application/JSON; charset=utf-8" -> "application/json"). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The reason a request authorized by the cookie is refused, or undefined when it may go on. Pure, on the
 * few request fields it reads, so each rule is tested on its own.
 */
export function cookieRequestRefusal(req: { method: string; protocol: string; headers: Record<string, string | string[] | undefined> }): string | undefined {
  if (SAFE_METHODS.has(req.method)) return undefined;
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const origin = header('origin');
  const host = header('host');
  const own = ownOrigin(req.protocol, host);
  if (header('sec-fetch-site') !== 'same-origin' && !sameOrigin(origin, own)) {
    const from = origin ? `comes from the page at ${origin.slice(0, 200)}` : 'carries neither an Origin header nor Sec-Fetch-Site: same-origin';
    return `this ${req.method} is authorized by the token cookie but ${from}, not from this server's page${own ? ` (${own})` : ''}`;
  }
  const type = mediaType(header('content-type'));
  if (type !== 'application/json') {
    return `this ${req.method} is authorized by the token cookie but its body is ${type ? `"${type.slice(0, 100)}"` : 'untyped (no Content-Type)'}: send it as Content-Type: application/json`;
  }
  return undefined;
}

/** Throws `CookieRequestRefused` when `cookieRequestRefusal` finds a reason. */
export function refuseCrossSiteCookieRequest(req: FastifyRequest): void {
  const why = cookieRequestRefusal(req);
  if (why !== undefined) throw new CookieRequestRefused(why);
}
