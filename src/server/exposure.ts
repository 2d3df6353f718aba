/**
 * Who may talk to the server.
 *
 * - **Request target** (always on): only origin-form targets ("/path?query"). An absolute-form line
 *   (`GET http://evil.example/v1/health`) names a host of its own beside the Host header; nothing a
 *   browser or a reverse proxy sends to an origin server looks like that, so it is refused (400).
 * - **Host allowlist** (always on): the Host header must be a host name, an IPv4 address or a bracketed
 *   IPv6 address with an optional numeric port, nothing else (`127.0.0.1:80@evil.example`, `localhost:evil`
 *   get 400), and a name this server answers to (else 403). A web page on an attacker's domain can point
 *   that domain's DNS at 127.0.0.1 (DNS rebinding) and then read the API as same-origin; its requests
 *   still carry the attacker's Host, which is refused here. Allowed: localhost, 127.0.0.1, [::1], the
 *   listening address (every interface address and the machine's name when listening on 0.0.0.0 / ::),
 *   and the operator's `--allow-host` names.
 * - **Bearer token** (optional on loopback, required beyond it): decided on the route the router matched,
 *   never on the raw URL (which a client can spell as `/%761/verify`, `//v1/verify`...: the router decodes
 *   and matches it, a prefix check on the raw text would not). Deny by default: with a token, every request
 *   needs it except those the router sent to a route registered as public (`PUBLIC_ROUTE`: the web page's
 *   own files, which hold no data); an unknown path needs it too. It is `Authorization: Bearer <token>` or
 *   the token cookie. The web page gets the cookie by being opened once as `/?token=<token>`: the server
 *   sets it (HttpOnly, SameSite=Strict, Max-Age 12 hours, Secure over TLS) and redirects to `/` so the
 *   token leaves the address bar. A cookie, rather than a header the page would add, because the page's
 *   EventSource (audit progress) and its export link cannot send headers, and an HttpOnly cookie is out of
 *   reach of scripts. SameSite=Strict keeps other sites' requests from carrying it; a page on another port
 *   of the same host is the same site, so a state-changing request authorized by the cookie must also come
 *   from this server's own origin and send JSON (cookie-requests.ts).
 * - **Single headers** (always on): two Host, Content-Length or Authorization lines get 400
 *   (strict-headers.ts), checked first, before the Host allowlist reads the first one.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
// The `cookie` package itself (what @fastify/cookie wraps): two calls, and its 1.x line supports Node 20.
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuseCrossSiteCookieRequest } from './cookie-requests.js';
import { HttpError } from './errors.js';
import type { ResolvedServerOptions } from './options.js';
import { refuseDuplicateHeaders } from './strict-headers.js';

/** Shorter tokens are refused: a token is the only thing between the network and the models. */
export const MIN_TOKEN_LENGTH = 16;
const TOKEN_HINT = 'e.g. VERACITE_TOKEN=$(openssl rand -hex 32)';

/** "[::1]" -> "::1", "Example.ORG." -> "example.org". */
function normalise(name: string): string {
  return name.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

export function isWildcardAddress(host: string): boolean {
  return ['0.0.0.0', '::', '', '::0'].includes(normalise(host));
}

export function isLoopbackAddress(host: string): boolean {
  const h = normalise(host);
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * A Host header as RFC 9110 allows it: a registered name or IPv4 address (letters, digits, '-', '.', and
 * '_' which some internal names carry) or a bracketed IPv6 address, then an optional numeric port. Anything
 * else (userinfo "a@b", a port that is not a number, spaces, a path) is not a host.
 */
const HOST_HEADER = /^(?:(\[[0-9a-fA-F:.]+(?:%[\w.~-]+)?\])|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/;

/** The normalised name of a well-formed Host header ("example.org:8080" -> "example.org", "[::1]:80" -> "::1"); undefined when malformed. */
export function parseHostHeader(header: string): string | undefined {
  const m = HOST_HEADER.exec(header.trim());
  if (!m) return undefined;
  if (m[3] !== undefined && Number(m[3]) > 65535) return undefined;
  return normalise(m[1] ?? m[2]!);
}

/** The name part of a Host header, for messages (a malformed header is returned trimmed, as given). */
export function hostOfHeader(header: string): string {
  return parseHostHeader(header) ?? header.trim();
}

export class HostAllowlist {
  readonly any: boolean;
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(listenHost: string, extra: readonly string[]) {
    this.any = extra.includes('*');
    for (const n of ['localhost', '127.0.0.1', '::1']) this.names.add(n);
    if (isWildcardAddress(listenHost)) {
      for (const addrs of Object.values(networkInterfaces())) for (const a of addrs ?? []) this.names.add(normalise(a.address));
      this.names.add(normalise(hostname()));
    } else this.names.add(normalise(listenHost));
    for (const e of extra) {
      if (e === '*') continue;
      if (e.startsWith('.')) this.suffixes.push(normalise(e));
      else this.names.add(normalise(e));
    }
  }

  /** Whether a well-formed Host header names this server (check the form first: `parseHostHeader`). */
  allows(hostHeader: string | undefined): boolean {
    // No Host at all: HTTP/1.0 from a script, never a browser (browsers always send it), so no rebinding.
    if (this.any || hostHeader === undefined) return true;
    const h = parseHostHeader(hostHeader);
    if (h === undefined) return false;
    return this.names.has(h) || this.suffixes.some((s) => h.endsWith(s) || h === s.slice(1));
  }
}

export class ExposureError extends Error {
  override readonly name = 'ExposureError';
}

/**
 * Checks the options before listening: throws when the token is missing beyond loopback or too short;
 * returns the warnings the operator should see.
 */
export function checkExposure(o: Pick<ResolvedServerOptions, 'host' | 'port' | 'token' | 'allowedHosts'>): string[] {
  if (o.token !== undefined && o.token.length < MIN_TOKEN_LENGTH) {
    throw new ExposureError(`the token (--token or VERACITE_TOKEN) is ${o.token.length} characters; use at least ${MIN_TOKEN_LENGTH} random ones (${TOKEN_HINT})`);
  }
  const warnings: string[] = [];
  if (!isLoopbackAddress(o.host)) {
    if (o.token === undefined) {
      throw new ExposureError(
        `--host ${o.host} makes the API reachable from other machines, so it needs a token: give --token <secret> or set the environment variable VERACITE_TOKEN (${TOKEN_HINT}), or listen on 127.0.0.1`,
      );
    }
    if (isWildcardAddress(o.host)) {
      warnings.push(
        `listening on every network interface (${o.host || '0.0.0.0'}): anyone who can reach port ${o.port} can try the API; requests need the token, which plain HTTP sends in clear, so put a TLS reverse proxy in front (and --allow-host the name it forwards)`,
      );
    }
  }
  if (o.allowedHosts.includes('*')) warnings.push('--allow-host "*": the Host check is off, so a page using DNS rebinding can reach this server; use it only behind a proxy that checks the name');
  return warnings;
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Constant-time comparison (of digests, so lengths never differ). */
function sameToken(given: string | undefined, token: string): boolean {
  return given !== undefined && timingSafeEqual(sha256(given), sha256(token));
}

/**
 * Per port: browsers keep cookies per host, ignoring ports, so two servers on one host would otherwise
 * overwrite each other's cookie, and each server reads only the cookie its own page was given.
 */
export function tokenCookieName(port: number): string {
  return `veracite_token_${port}`;
}

/** How long the page's cookie lasts: a working day; after it, the page is opened with the token again. */
export const TOKEN_COOKIE_MAX_AGE_S = 12 * 60 * 60;

/** Served over TLS, directly or (as the exposure warning advises) behind a TLS proxy that says so. */
function overTls(req: FastifyRequest): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  return req.protocol === 'https' || /^https\s*(,|$)/i.test(Array.isArray(forwarded) ? (forwarded[0] ?? '') : (forwarded ?? ''));
}

export class HostNotAllowedError extends HttpError {
  constructor(host: string) {
    super(
      403,
      'host_not_allowed',
      `Host "${host}" is not a name this server answers to (a guard against DNS rebinding); if it is yours, start the server with --allow-host ${hostOfHeader(host) || host}`,
    );
  }
}

export class InvalidHostError extends HttpError {
  constructor(host: string) {
    super(400, 'invalid_host', `Host header ${JSON.stringify(host.slice(0, 200))} is not a host name or address with an optional numeric port`);
  }
}

export class InvalidTargetError extends HttpError {
  constructor() {
    super(400, 'invalid_request', 'the request target must be a path ("/v1/..."), as clients send it to an origin server; absolute-form targets naming a host are refused');
  }
}

/**
 * Route config of a route served without the token: only routes that hold no data (the web page's
 * files). Everything else, unknown paths included, needs the token when the server has one.
 */
export const PUBLIC_ROUTE = { public: true } as const;

function isPublicRoute(req: FastifyRequest): boolean {
  // routeOptions.url is undefined when no route matched (the not-found handler): never public.
  return req.routeOptions.url !== undefined && (req.routeOptions.config as { public?: unknown } | undefined)?.public === true;
}

/** The `token` query parameter of the request, if any. */
function queryToken(req: FastifyRequest): string | undefined {
  const q = req.url.indexOf('?');
  return q < 0 ? undefined : (new URLSearchParams(req.url.slice(q + 1)).get('token') ?? undefined);
}

export class UnauthorizedError extends HttpError {
  constructor(detail: string) {
    super(401, 'unauthorized', `${detail}: send "Authorization: Bearer <token>" (the token the server was started with, --token or VERACITE_TOKEN), or open this server's page once as /?token=<token>`, undefined, {
      'www-authenticate': 'Bearer realm="veracite"',
    });
  }
}

function bearer(req: FastifyRequest): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/**
 * The request-target and Host checks on every request, the token on every non-public route and the
 * `/?token=` exchange for the cookie. An onRequest hook runs after routing, so `req.routeOptions` is the
 * route the router chose for the decoded, normalised path: that, not the raw URL, decides.
 */
export function registerExposureGuards(app: FastifyInstance, o: Pick<ResolvedServerOptions, 'host' | 'port' | 'token' | 'allowedHosts'>): void {
  const hosts = new HostAllowlist(o.host, o.allowedHosts);
  const token = o.token;

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    refuseDuplicateHeaders(req.raw.rawHeaders);
    if (!(req.raw.url ?? '').startsWith('/')) throw new InvalidTargetError();
    const host = req.headers.host;
    if (host !== undefined && parseHostHeader(host) === undefined) throw new InvalidHostError(host);
    if (!hosts.allows(host)) throw new HostNotAllowedError(host ?? '');
    if (!token) return;
    // The port this connection reached (the options say 0 when the system chose it).
    const cookie = tokenCookieName(req.socket?.localPort ?? o.port);
    if (isPublicRoute(req)) {
      const given = req.routeOptions.url === '/' && req.method === 'GET' ? queryToken(req) : undefined;
      if (given === undefined) return;
      if (!sameToken(given, token)) throw new UnauthorizedError('the token in the address is not this server\'s');
      reply.header('set-cookie', stringifySetCookie(cookie, token, { path: '/', httpOnly: true, sameSite: 'strict', maxAge: TOKEN_COOKIE_MAX_AGE_S, secure: overTls(req) }));
      return reply.code(303).header('location', '/').header('cache-control', 'no-store').send();
    }
    const byHeader = bearer(req);
    const given = byHeader ?? (req.headers.cookie ? parseCookie(req.headers.cookie)[cookie] : undefined);
    if (given === undefined) throw new UnauthorizedError('this server needs a token');
    if (!sameToken(given, token)) throw new UnauthorizedError('wrong token');
    if (byHeader === undefined) refuseCrossSiteCookieRequest(req);
  });
}

/** The request URL as logged: a token in the query never reaches the log. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');
}
