/**
 * Strict headers and the token cookie's limits, over real loopback sockets (issue 35, item 5):
 * - two Host, Content-Length or Authorization lines get 400 with a message (raw TCP: HTTP clients will not
 *   send duplicates, and Node's parsed headers hide them);
 * - a request authorized by the cookie that changes state must come from this server's origin (a page on
 *   another port of 127.0.0.1 is the same site, so SameSite=Strict sends it the cookie) and send JSON;
 *   the same requests with `Authorization: Bearer` are unaffected;
 * - the cookie is named for the port and is Secure behind a TLS proxy.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cookieRequestRefusal, mediaType, sameOrigin } from './cookie-requests.js';
import { tokenCookieName } from './exposure.js';
import { ErrorResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { duplicateHeader } from './strict-headers.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from './testing/harness.js';
import { supportedClaims } from './testing/sample-index.js';

const TOKEN = 'guard-7e57-70ken-0123456789abcdef';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request written byte for byte on a fresh TCP connection (ending in "Connection: close", so the server
 * closes it once it has answered: a client half-close would abort the request); the response as written.
 */
function tcp(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** A request with any headers through node:http (which sets Host from the URL and Content-Length from the body). */
function send(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
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
let server: RunningServer;
let port: number;
let cookie: string;
const claimBody = () => JSON.stringify({ claim: supportedClaims()[0]!.claim });

before(async () => {
  ix = await makeTestIndex('veracite-guards-');
  server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'server'), token: TOKEN });
  port = Number(new URL(server.url).port);
  const opened = await send(server.url, `/?token=${TOKEN}`);
  assert.equal(opened.status, 303);
  cookie = String(opened.headers['set-cookie']).split(';')[0]!;
});
after(async () => {
  await server?.close();
  await ix?.cleanup();
});

describe('headers a request may carry once', () => {
  const bearer = `Authorization: Bearer ${TOKEN}\r\n`;

  it('a normal request over a raw socket is answered', async () => {
    const r = await tcp(port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${bearer}Connection: close\r\n\r\n`);
    assert.equal(r.status, 200, r.body);
  });

  it('two Host headers get 400 naming the header, whichever comes first and even when they agree', async () => {
    for (const hosts of [[`127.0.0.1:${port}`, 'evil.example'], ['evil.example', `127.0.0.1:${port}`], [`127.0.0.1:${port}`, `127.0.0.1:${port}`]]) {
      const lines = hosts.map((h) => `Host: ${h}\r\n`).join('');
      const e = errorOf(await tcp(port, `GET /v1/health HTTP/1.1\r\n${lines}${bearer}Connection: close\r\n\r\n`), 400);
      assert.equal(e.error, 'invalid_request');
      assert.match(e.message, /more than one Host header; send it once \(RFC 9112/, hosts.join(' '));
    }
    // before the token: the answer is the same without one
    assert.match(errorOf(await tcp(port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: evil.example\r\nConnection: close\r\n\r\n`), 400).message, /more than one Host/);
  });

  it('two Authorization headers get 400, even when both carry the right token', async () => {
    const e = errorOf(await tcp(port, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${bearer}${bearer}Connection: close\r\n\r\n`), 400);
    assert.match(e.message, /more than one Authorization header/);
  });

  it('two Content-Length headers get 400 with the parser\'s reason, equal or not', async () => {
    const body = claimBody();
    for (const second of [body.length, body.length + 5]) {
      const r = await tcp(
        port,
        `POST /v1/verify HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${bearer}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: ${second}\r\nConnection: close\r\n\r\n${body}`,
      );
      const e = errorOf(r, 400);
      assert.equal(e.error, 'invalid_request');
      assert.match(e.message, /malformed HTTP request: Duplicate Content-Length .*send one Content-Length/);
    }
  });

  it('finds duplicates in raw header lists, case-insensitively, and only for the single headers', () => {
    assert.equal(duplicateHeader(['Host', 'a', 'Accept', '*/*', 'HOST', 'b']), 'host');
    assert.equal(duplicateHeader(['content-length', '1', 'Content-Length', '1']), 'content-length');
    assert.equal(duplicateHeader(['Accept', 'a', 'Accept', 'b', 'Cookie', 'x', 'Cookie', 'y', 'Host', 'h']), undefined);
  });
});

describe('state-changing requests authorized by the cookie', () => {
  const post = (headers: Record<string, string>, body = claimBody()) => send(server.url, '/v1/verify', { method: 'POST', headers, body });

  it('the cookie is named for the port', () => {
    assert.equal(cookie.split('=')[0], tokenCookieName(port));
  });

  it('from this server\'s own origin, with JSON, go through (what the web page sends)', async () => {
    assert.equal((await post({ cookie, origin: server.url, 'content-type': 'application/json' })).status, 200);
    assert.equal((await post({ cookie, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json; charset=utf-8' })).status, 200);
    // a TLS proxy forwarding plain HTTP: the schemes differ, the browser's Sec-Fetch-Site vouches for the page
    assert.equal((await post({ cookie, origin: `https://veracite.example`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' })).status, 200);
  });

  it('a page on another port of 127.0.0.1 (same site, so it holds the cookie) cannot POST: 403 says why and what to do', async () => {
    for (const origin of [`http://127.0.0.1:${port + 1}`, `http://localhost:${port}`, `https://127.0.0.1:${port}`, 'null']) {
      const e = errorOf(await post({ cookie, origin, 'content-type': 'application/json' }), 403);
      assert.equal(e.error, 'cross_site_request', origin);
      assert.match(e.message, new RegExp(`authorized by the token cookie but comes from the page at ${origin.replace(/[.:/]/g, '\\$&')}, not from this server's page \\(http://127\\.0\\.0\\.1:${port}\\).*Authorization: Bearer <token>`));
    }
    const cross = errorOf(await post({ cookie, origin: `http://127.0.0.1:${port + 1}`, 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }), 403);
    assert.match(cross.message, /cross-site request forgery/);
    assert.match(errorOf(await post({ cookie, 'content-type': 'application/json' }), 403).message, /carries neither an Origin header nor Sec-Fetch-Site: same-origin/);
  });

  it('a text/plain body (what a form or a no-preflight fetch sends) gets 403, not a schema error, even from the right origin', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const e = errorOf(await post({ cookie, origin: server.url, 'content-type': type }), 403);
      assert.equal(e.error, 'cross_site_request');
      assert.match(e.message, new RegExp(`its body is "${type.split(';')[0]}": send it as Content-Type: application/json`));
    }
  });

  it('reads (GET) with the cookie need neither, as the page\'s EventSource and export link send them', async () => {
    assert.equal((await send(server.url, '/v1/health', { headers: { cookie } })).status, 200);
    assert.equal((await send(server.url, '/v1/annotations.jsonl', { headers: { cookie, origin: `http://127.0.0.1:${port + 1}` } })).status, 200);
  });

  it('requests with Authorization: Bearer are unaffected (programs send no Origin)', async () => {
    const authorization = `Bearer ${TOKEN}`;
    assert.equal((await post({ authorization, 'content-type': 'application/json' })).status, 200);
    assert.equal((await post({ authorization, cookie, origin: `http://127.0.0.1:${port + 1}`, 'content-type': 'application/json' })).status, 200);
    // a wrong body type is then the schema's ordinary answer, not the cookie's 403
    assert.match(errorOf(await post({ authorization, 'content-type': 'text/plain' }), 400).message, /^invalid body: \(root\): Invalid input: expected object/);
  });

  it('the cookie is Secure when the page is served over TLS (a proxy saying X-Forwarded-Proto: https)', async () => {
    const r = await send(server.url, `/?token=${TOKEN}`, { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(String(r.headers['set-cookie']), /; Secure/);
  });

  it('decides on the request fields alone', () => {
    const own = 'http://127.0.0.1:8080';
    const req = (method: string, headers: Record<string, string>) => ({ method, protocol: 'http', headers: { host: '127.0.0.1:8080', ...headers } });
    assert.equal(cookieRequestRefusal(req('POST', { origin: own, 'content-type': 'application/json' })), undefined);
    assert.equal(cookieRequestRefusal(req('GET', { origin: 'http://127.0.0.1:9' })), undefined);
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.match(cookieRequestRefusal(req(m, { origin: 'http://127.0.0.1:9', 'content-type': 'application/json' }))!, new RegExp(`^this ${m} `));
    assert.ok(sameOrigin('HTTP://LOCALHOST:80', 'http://localhost') && !sameOrigin('http://localhost:81', 'http://localhost') && !sameOrigin('not a url', own));
    assert.equal(mediaType(' Application/JSON ; charset=utf-8'), 'application/json');
  });
});
