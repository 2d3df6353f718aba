/**
 * Exposure over real loopback HTTP: the Host allowlist (DNS rebinding), the bearer token on /v1 with the
 * page's `/?token=` cookie exchange, and the refusal to listen beyond loopback without a token (through the
 * library and through `veracite serve`).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildProgram } from '../cli/main.js';
import { checkExposure, ExposureError, hostOfHeader, HostAllowlist, isLoopbackAddress, parseHostHeader, TOKEN_COOKIE_MAX_AGE_S, tokenCookieName } from './exposure.js';
import { ErrorResponse, HealthResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from './testing/harness.js';
import { auditArticle } from './testing/sample-index.js';

const TOKEN = 'c0ffee-7e57-70ken-0123456789abcdef';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET or POST with any headers, Host included (fetch does not let a caller set Host). */
function raw(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

function errorOf(r: RawResponse, status: number) {
  assert.equal(r.status, status, r.body);
  return ErrorResponse.parse(JSON.parse(r.body));
}

let ix: TestIndex;
before(async () => {
  ix = await makeTestIndex('veracite-exposure-');
});
after(async () => ix.cleanup());

describe('Host allowlist (DNS rebinding guard)', () => {
  let server: RunningServer;
  let port: string;
  before(async () => {
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'hosts'), allowedHosts: ['veracite.internal', '.corp.example'] });
    port = new URL(server.url).port;
  });
  after(async () => server.close());

  it('answers loopback names and the allowed ones', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST', `veracite.internal:${port}`, `docs.corp.example:${port}`, 'corp.example']) {
      const r = await raw(server.url, '/v1/health', { headers: { host } });
      assert.equal(r.status, 200, `${host}: ${r.body}`);
      HealthResponse.parse(JSON.parse(r.body));
    }
  });

  it('refuses any other Host with 403 and says how to allow it, on the API and on the page', async () => {
    const e = errorOf(await raw(server.url, '/v1/health', { headers: { host: `rebind.attacker.example:${port}` } }), 403);
    assert.equal(e.error, 'host_not_allowed');
    assert.match(e.message, /--allow-host rebind\.attacker\.example/);
    assert.equal((await raw(server.url, '/', { headers: { host: 'rebind.attacker.example' } })).status, 403);
    assert.equal((await raw(server.url, '/v1/verify', { method: 'POST', headers: { host: 'evilcorp.example', 'content-type': 'application/json' }, body: '{"claim":"x"}' })).status, 403);
    // a suffix rule matches subdomains, not names that merely end the same way
    assert.equal((await raw(server.url, '/v1/health', { headers: { host: 'evilcorp.example' } })).status, 403);
  });

  it('refuses a malformed Host with 400, whatever name it starts with', async () => {
    for (const host of [`127.0.0.1:${port}@evil.example.com`, 'localhost:evil', `localhost:${port}/x`, 'localhost:99999', 'local host', `[::1]x:${port}`, 'veracite.internal:80:80']) {
      const e = errorOf(await raw(server.url, '/v1/health', { headers: { host } }), 400);
      assert.ok(e.error === 'invalid_host' || e.error === 'invalid_request', `${JSON.stringify(host)}: ${e.error}`);
    }
  });

  it('refuses an absolute-form request line naming another host, even with a good Host header', async () => {
    for (const path of ['http://evil.example.com/v1/health', `http://127.0.0.1:${port}/v1/health`, '*']) {
      const e = errorOf(await raw(server.url, path, { headers: { host: `127.0.0.1:${port}` } }), 400);
      assert.match(e.message, /request target must be a path/, path);
    }
  });

  it('parses Host headers and classifies addresses', () => {
    assert.deepEqual(['example.org:8080', '[::1]:80', 'Example.ORG.', '127.0.0.1'].map(hostOfHeader), ['example.org', '::1', 'example.org', '127.0.0.1']);
    assert.deepEqual(['127.0.0.1:1@evil.example', 'localhost:evil', 'a b', 'x:65536', '[::1'].map(parseHostHeader), [undefined, undefined, undefined, undefined, undefined]);
    assert.equal(new HostAllowlist('127.0.0.1', []).allows('127.0.0.1:80@evil.example'), false);
    assert.deepEqual(['127.0.0.1', '127.3.2.1', '::1', 'localhost', '0.0.0.0', '192.168.1.4', 'example.org'].map(isLoopbackAddress), [true, true, true, true, false, false, false]);
    const wildcard = new HostAllowlist('0.0.0.0', []);
    assert.ok(wildcard.allows('127.0.0.1:1') && !wildcard.allows('attacker.example'));
    assert.ok(new HostAllowlist('127.0.0.1', ['*']).allows('anything.example'));
  });
});

describe('bearer token', () => {
  let server: RunningServer;
  const audit = new FakeAuditService(5);
  before(async () => {
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'token'), token: TOKEN }, () => audit);
  });
  after(async () => server.close());

  it('every /v1 route needs it; 401 says how to give it', async () => {
    for (const path of ['/v1/health', '/v1/openapi.json', '/v1/search?q=cancer', '/v1/audits', '/v1/annotations.jsonl', '/v1/nope']) {
      const e = errorOf(await raw(server.url, path), 401);
      assert.equal(e.error, 'unauthorized', path);
    }
    const r = await raw(server.url, '/v1/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"claim":"x"}' });
    const e = errorOf(r, 401);
    assert.match(e.message, /Authorization: Bearer <token>.*--token or VERACITE_TOKEN.*\/\?token=<token>/);
    assert.equal(r.headers['www-authenticate'], 'Bearer realm="veracite"');
    assert.match(errorOf(await raw(server.url, '/v1/health', { headers: { authorization: `Bearer ${TOKEN}x` } }), 401).message, /^wrong token/);
    assert.equal((await raw(server.url, '/v1/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
  });

  it('the page itself loads without it (it holds no data)', async () => {
    assert.equal((await raw(server.url, '/')).status, 200);
    assert.equal((await raw(server.url, '/app.js')).status, 200);
  });

  it('/?token= sets an HttpOnly SameSite=Strict cookie named for the port, for 12 hours, and redirects it out of the address bar; the cookie opens the API and event streams', async () => {
    errorOf(await raw(server.url, '/?token=not-the-token'), 401);
    const r = await raw(server.url, `/?token=${encodeURIComponent(TOKEN)}`);
    assert.equal(r.status, 303);
    assert.equal(r.headers.location, '/');
    const setCookie = String(r.headers['set-cookie']);
    const port = Number(new URL(server.url).port);
    assert.match(setCookie, new RegExp(`^veracite_token_${port}=`));
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.match(setCookie, new RegExp(`Max-Age=${TOKEN_COOKIE_MAX_AGE_S}(;|$)`));
    assert.doesNotMatch(setCookie, /Secure/, 'plain HTTP: a Secure cookie would not be kept');
    const cookie = setCookie.split(';')[0]!;
    assert.equal((await raw(server.url, '/v1/health', { headers: { cookie } })).status, 200);
    assert.equal(errorOf(await raw(server.url, '/v1/health', { headers: { cookie: `${tokenCookieName(port)}=guess` } }), 401).error, 'unauthorized');
    // the cookie another port's server set is not this one's
    assert.equal(errorOf(await raw(server.url, '/v1/health', { headers: { cookie: `${tokenCookieName(port + 1)}=${TOKEN}` } }), 401).error, 'unauthorized');
    // An audit started (from the page's own origin, as a browser sends it) and followed with the cookie alone, as the page's EventSource does.
    const art = auditArticle(2);
    const created = await raw(server.url, '/v1/audits', { method: 'POST', headers: { cookie, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify(art) });
    assert.equal(created.status, 202, created.body);
    const { links } = JSON.parse(created.body) as { links: { events: string } };
    const events = await raw(server.url, links.events, { headers: { cookie, accept: 'text/event-stream' } });
    assert.equal(events.status, 200);
    assert.match(events.body, /event: done/);
  });
});

describe('listening beyond loopback', () => {
  it('needs a token, and warns on every interface', () => {
    const base = { port: 8080, allowedHosts: [] as string[] };
    assert.throws(() => checkExposure({ ...base, host: '0.0.0.0', token: undefined }), (e: Error) => e instanceof ExposureError && /--token <secret>.*VERACITE_TOKEN/.test(e.message));
    assert.throws(() => checkExposure({ ...base, host: '192.168.1.20', token: undefined }), ExposureError);
    assert.throws(() => checkExposure({ ...base, host: '127.0.0.1', token: 'short' }), /at least 16/);
    assert.deepEqual(checkExposure({ ...base, host: '127.0.0.1', token: undefined }), []);
    assert.deepEqual(checkExposure({ ...base, host: '192.168.1.20', token: TOKEN }), []);
    const [w] = checkExposure({ ...base, host: '::', token: TOKEN });
    assert.match(w!, /every network interface.*port 8080/);
  });

  it('startServer refuses before loading models or listening', async () => {
    await assert.rejects(startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'wide'), host: '0.0.0.0' }), /needs a token: give --token/);
  });

  it('a server on 0.0.0.0 with a token starts and reports the warning', async () => {
    const server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'wide'), host: '0.0.0.0', token: TOKEN });
    try {
      assert.match(server.warnings.join('\n'), /every network interface/);
      const port = new URL(server.url).port;
      assert.equal((await raw(`http://127.0.0.1:${port}`, '/v1/health', { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
    } finally {
      await server.close();
    }
  });

  it('`veracite serve --host 0.0.0.0` refuses, naming the flag and the environment variable; VERACITE_TOKEN is read', async () => {
    const serve = (args: string[]) => buildProgram().exitOverride().parseAsync(['node', 'veracite', 'serve', '--index', ix.index, '--scorer', 'lexical', '--port', '0', ...args]);
    await assert.rejects(serve(['--host', '0.0.0.0']), /--host 0\.0\.0\.0 makes the API reachable .*--token <secret>.*VERACITE_TOKEN/);
    process.env.VERACITE_TOKEN = 'too-short';
    try {
      await assert.rejects(serve([]), /the token \(--token or VERACITE_TOKEN\) is 9 characters/);
    } finally {
      delete process.env.VERACITE_TOKEN;
    }
  });
});
