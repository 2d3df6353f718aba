/**
 * The token guards what the router routes, not what the raw URL looks like. Every route of the route
 * table (read from it, so a new route is covered the day it is added) is asked for without a token under
 * path spellings that a router may decode or normalise to it (percent-encoded letters and digits, doubled
 * slashes, dot segments, case, trailing slash, encoded slashes...): each must answer 401, never the handler.
 * The page's own files stay public; an unknown path needs the token too (deny by default).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_ROUTES } from './routes/index.js';
import type { RunningServer } from './start.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from './testing/harness.js';

const TOKEN = 'c0ffee-7e57-70ken-0123456789abcdef';

/** Sends the path exactly as written (fetch and URL would normalise it first). */
function send(base: string, path: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const enc = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/** Spellings of one path ("/v1/audits/abc") that a lenient router or proxy could take for it. */
export function pathVariants(path: string): string[] {
  const segs = path.split('/').slice(1); // ['v1', 'audits', 'abc']
  const [first, ...rest] = segs;
  const tail = rest.length ? `/${rest.join('/')}` : '';
  const last = segs[segs.length - 1]!;
  const head = segs.slice(0, -1).map((s) => `/${s}`).join('');
  const variants = [
    `/${enc(first![0]!)}${first!.slice(1)}${tail}`, // /%761/verify
    `/${first!.slice(0, -1)}${enc(first!.slice(-1))}${tail}`, // /v%31/verify
    `/${[...first!].map(enc).join('')}${tail}`, // /%76%31/verify
    `/${enc(first![0]!).toLowerCase()}${first!.slice(1)}${tail}`, // lower-case hex
    `//${segs.join('/')}`, // //v1/verify
    `/${first}//${rest.join('/')}`, // /v1//verify
    `/./${segs.join('/')}`, // /./v1/verify
    `/x/../${segs.join('/')}`, // /x/../v1/verify
    `/${first}/./${rest.join('/')}`, // /v1/./verify
    `/%2e/${segs.join('/')}`, // /%2e/v1/verify
    `/${segs.join('/').toUpperCase()}`, // /V1/VERIFY
    `${path}/`, // /v1/verify/
    `/${first}%2F${rest.join('/')}`, // /v1%2Fverify
    `/${first}%2f${rest.join('/')}`, // /v1%2fverify
    `${head}/${enc(last[0]!)}${last.slice(1)}`, // /v1/%76erify
    `${path}%20`, // trailing encoded space
    `${path};`, // matrix-parameter style
    `/${first}\\${rest.join('\\')}`, // backslashes
  ];
  return [...new Set(variants)].filter((v) => v !== path);
}

/** A concrete path for a route's OpenAPI path ("/v1/audits/{id}/events" -> "/v1/audits/abc/events"). */
const concrete = (p: string) => p.replace(/\{(\w+)\}/g, 'abc');

let ix: TestIndex;
let server: RunningServer;
const audit = new FakeAuditService(1);
before(async () => {
  ix = await makeTestIndex('veracite-exposure-routes-');
  server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'data'), token: TOKEN }, () => audit);
});
after(async () => {
  await server.close();
  await ix.cleanup();
});

describe('the token guards every route however its path is spelled', () => {
  it('the route table has the /v1 routes and each spelling list has at least 12 variants', () => {
    assert.ok(API_ROUTES.length >= 12, `${API_ROUTES.length} routes`);
    for (const r of API_ROUTES) assert.ok(pathVariants(concrete(r.doc.path)).length >= 12, r.doc.path);
  });

  for (const route of API_ROUTES) {
    const path = concrete(route.doc.path);
    it(`${route.doc.method} ${route.doc.path}: 401 without a token, as written and in every variant`, async () => {
      const body = route.doc.method === 'POST' ? JSON.stringify({ claim: 'Vitamin D lowers fracture risk.' }) : undefined;
      for (const p of [path, ...pathVariants(path)]) {
        const r = await send(server.url, p, route.doc.method, body);
        assert.equal(r.status, 401, `${route.doc.method} ${p} answered ${r.status}: ${r.body.slice(0, 200)}`);
        assert.equal(JSON.parse(r.body).error, 'unauthorized', p);
      }
    });
  }

  it('no audit job was started by any of those requests', () => {
    assert.deepEqual(audit.audited, []);
  });

  it('with the token the routes answer (the guard is not simply closed)', async () => {
    const r = await send(server.url, '/v1/health', 'GET', undefined, { authorization: `Bearer ${TOKEN}` });
    assert.equal(r.status, 200, r.body);
    const v = await send(server.url, '/v1/verify', 'POST', JSON.stringify({ claim: 'Vitamin D lowers fracture risk.' }), { authorization: `Bearer ${TOKEN}` });
    assert.equal(v.status, 200, v.body);
  });

  it('an unknown path needs the token too (deny by default); the page and its files do not', async () => {
    for (const p of ['/nope', '/v2/verify', '/%76%31', '/v1']) assert.equal((await send(server.url, p, 'GET')).status, 401, p);
    assert.equal((await send(server.url, '/', 'GET')).status, 200);
    assert.equal((await send(server.url, '/app.js', 'GET')).status, 200);
  });
});
