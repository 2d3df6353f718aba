/**
 * CORS for --allow-origin (cors.ts) over real loopback HTTP: an allowed origin's preflight is answered
 * without the token and runs no handler; its requests carry the echoed origin (errors too, and the SSE
 * stream); any other origin gets no CORS header; no Access-Control-Allow-Credentials ever; bad origins and
 * allowing an origin without a token are refused at start.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { normaliseOrigin } from './cors.js';
import type { RunningServer } from './start.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from './testing/harness.js';

const TOKEN = 'c0rs-7e57-70ken-0123456789abcdef';
const WIKI = 'https://en.wikipedia.org';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string; firstChunk?: boolean } = {}): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (opts.firstChunk) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

let ix: TestIndex;
before(async () => {
  ix = await makeTestIndex('veracite-cors-');
});
after(async () => ix.cleanup());

describe('--allow-origin (CORS)', () => {
  let server: RunningServer;
  const audit = new FakeAuditService(1);
  before(async () => {
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'cors'), token: TOKEN, allowOrigins: [WIKI, 'http://127.0.0.1:9999/'] }, () => audit);
  });
  after(async () => server.close());

  it('answers an allowed origin\'s preflight without the token, echoing that exact origin, and runs no handler', async () => {
    const jobsBefore = server.ctx.jobs.store.list().length;
    const r = await raw(server.url, '/v1/audits', {
      method: 'OPTIONS',
      headers: { origin: WIKI, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    assert.equal(r.status, 204, r.body);
    assert.equal(r.body, '');
    assert.equal(r.headers['access-control-allow-origin'], WIKI);
    assert.match(String(r.headers.vary), /Origin/);
    assert.match(String(r.headers['access-control-allow-headers']), /\bauthorization\b/);
    assert.match(String(r.headers['access-control-allow-headers']), /\bcontent-type\b/);
    assert.match(String(r.headers['access-control-allow-methods']), /POST/);
    assert.equal(r.headers['access-control-allow-credentials'], undefined, 'never credentials (cookies) across origins');
    assert.equal(server.ctx.jobs.store.list().length, jobsBefore, 'the preflight created no job');
    // A second allowed origin, given with a trailing slash, is matched as the browser sends it.
    const other = await raw(server.url, '/v1/verify', { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:9999', 'access-control-request-method': 'POST' } });
    assert.equal(other.status, 204);
    assert.equal(other.headers['access-control-allow-origin'], 'http://127.0.0.1:9999');
  });

  it('Chromium\'s private-network preflight is answered for an allowed origin', async () => {
    const r = await raw(server.url, '/v1/audits', { method: 'OPTIONS', headers: { origin: WIKI, 'access-control-request-method': 'POST', 'access-control-request-private-network': 'true' } });
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-private-network'], 'true');
  });

  it('a non-allowed origin gets no CORS header: not on its preflight, not on its requests', async () => {
    for (const origin of ['https://evil.example', 'https://en.wikipedia.org.evil.example', 'http://en.wikipedia.org', 'null']) {
      const pre = await raw(server.url, '/v1/audits', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      assert.equal(pre.status, 403, `${origin}: ${pre.body}`);
      assert.equal(pre.headers['access-control-allow-origin'], undefined, origin);
      assert.equal(pre.headers['access-control-allow-methods'], undefined, origin);
      const get = await raw(server.url, '/v1/health', { headers: { origin, authorization: `Bearer ${TOKEN}` } });
      assert.equal(get.status, 200);
      assert.equal(get.headers['access-control-allow-origin'], undefined, origin);
      assert.match(String(get.headers.vary), /Origin/);
    }
    const noOrigin = await raw(server.url, '/v1/health', { method: 'OPTIONS' });
    assert.equal(noOrigin.status, 403);
    assert.equal(noOrigin.headers['access-control-allow-origin'], undefined);
  });

  it('an allowed origin\'s requests need the token, and their refusals are readable there', async () => {
    const denied = await raw(server.url, '/v1/health', { headers: { origin: WIKI } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers['access-control-allow-origin'], WIKI);
    assert.match(JSON.parse(denied.body).message, /needs a token/);
    const cookie = await raw(server.url, '/v1/health', { headers: { origin: WIKI, cookie: 'veracite-token-x=' + TOKEN } });
    assert.equal(cookie.status, 401, 'a cookie of the wrong name is no token');
    const ok = await raw(server.url, '/v1/health', { headers: { origin: WIKI, authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], WIKI);
    assert.equal(ok.headers['access-control-allow-credentials'], undefined);
  });

  it('the audit\'s event stream (a hijacked reply) carries the CORS headers too', async () => {
    const created = await raw(server.url, '/v1/audits', {
      method: 'POST',
      headers: { origin: WIKI, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ wikitext: 'Vitamin D is a vitamin.<ref>https://example.org/a</ref>\n', title: 'CORS' }),
    });
    assert.equal(created.status, 202, created.body);
    assert.equal(created.headers['access-control-allow-origin'], WIKI);
    const { id } = JSON.parse(created.body) as { id: string };
    const events = await raw(server.url, `/v1/audits/${id}/events`, { headers: { origin: WIKI, authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' }, firstChunk: true });
    assert.equal(events.status, 200);
    assert.match(String(events.headers['content-type']), /text\/event-stream/);
    assert.equal(events.headers['access-control-allow-origin'], WIKI);
  });

  it('the Host check still applies to a preflight', async () => {
    const r = await raw(server.url, '/v1/audits', { method: 'OPTIONS', headers: { host: 'rebound.example', origin: WIKI, 'access-control-request-method': 'POST' } });
    assert.equal(r.status, 403);
    assert.match(JSON.parse(r.body).error, /host_not_allowed/);
  });
});

describe('without --allow-origin', () => {
  it('no CORS header and no preflight route', async () => {
    const server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'plain'), token: TOKEN }, () => new FakeAuditService(1));
    try {
      const get = await raw(server.url, '/v1/health', { headers: { origin: WIKI, authorization: `Bearer ${TOKEN}` } });
      assert.equal(get.status, 200);
      assert.equal(get.headers['access-control-allow-origin'], undefined);
      const pre = await raw(server.url, '/v1/audits', { method: 'OPTIONS', headers: { origin: WIKI, 'access-control-request-method': 'POST' } });
      assert.notEqual(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], undefined);
    } finally {
      await server.close();
    }
  });
});

describe('allowed origins are checked at start', () => {
  it('exact http(s) origins only: "*", "null", paths, wildcards are refused', () => {
    assert.equal(normaliseOrigin('HTTPS://En.Wikipedia.org'), 'https://en.wikipedia.org');
    assert.equal(normaliseOrigin('https://en.wikipedia.org:443/'), 'https://en.wikipedia.org');
    assert.equal(normaliseOrigin('http://127.0.0.1:8000'), 'http://127.0.0.1:8000');
    for (const bad of ['*', 'null', 'https://*.wikipedia.org', 'https://en.wikipedia.org/wiki/X', 'en.wikipedia.org', 'ftp://x.example', 'https://u:p@x.example', 'https://x.example/?a']) {
      assert.throws(() => normaliseOrigin(bad), /allow-origin/, bad);
    }
  });

  it('an allowed origin without a token: the server does not start', async () => {
    await assert.rejects(startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'no-token'), allowOrigins: [WIKI] }, () => new FakeAuditService(1)), /--allow-origin needs a token/);
    await assert.rejects(startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'star'), token: TOKEN, allowOrigins: ['*'] }, () => new FakeAuditService(1)), /never allowed/);
  });
});
