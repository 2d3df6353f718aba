/**
 * The web interface: the plain HTML/CSS/JS files of src/web, served as they are (no build step, nothing
 * from a CDN). They are read once at start-up (a few tens of KB) and only those names are served, so no
 * request path ever reaches the file system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from '../util/package-root.js';
import { PUBLIC_ROUTE } from './exposure.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Everything from this origin only: the page loads no third-party code and talks only to this API. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export function webDir(): string {
  return join(packageRoot(), 'src', 'web');
}

/** The wiki gadget (src/wiki-gadget): served so a user script or bookmarklet can load it from this server. */
export const GADGET_FILE = 'veracite-gadget.js';

export function gadgetDir(): string {
  return join(packageRoot(), 'src', 'wiki-gadget');
}

export function registerStatic(app: FastifyInstance, dir = webDir()): void {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (!type || !statSync(join(dir, name)).isFile()) continue;
    files.set(name, { body: readFileSync(join(dir, name)), type });
  }
  const serve = (name: string) => async (_req: unknown, reply: import('fastify').FastifyReply) => {
    const f = files.get(name)!;
    reply.type(f.type).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
    if (f.type.startsWith('text/html')) reply.header('content-security-policy', CSP);
    return reply.send(f.body);
  };
  // The page's files hold no data: served without the token (every other route needs it, see exposure.ts).
  if (files.has('index.html')) app.get('/', { config: PUBLIC_ROUTE }, serve('index.html'));
  for (const name of files.keys()) app.get(`/${name}`, { config: PUBLIC_ROUTE }, serve(name));
  // The gadget holds no data either; other sites load it with <script src>, which needs no CORS.
  const gadget = join(gadgetDir(), GADGET_FILE);
  if (!files.has(GADGET_FILE) && existsSync(gadget)) {
    files.set(GADGET_FILE, { body: readFileSync(gadget), type: TYPES['.js']! });
    app.get(`/${GADGET_FILE}`, { config: PUBLIC_ROUTE }, serve(GADGET_FILE));
  }
}
