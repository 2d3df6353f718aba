import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { html, startPageServer, type PageServer } from '../../test/fixtures/audit/page-server.js';
import { fetchPage } from './http-fetch.js';
import { resolveChecked, type Resolver } from './ssrf-guard.js';

const PAGE = html('<p>The lighthouse at Godrevy was built in 1859 by James Walker.</p><p>It stands on Godrevy Island in St Ives Bay.</p>', 'Godrevy Lighthouse');
const LOCAL = { allowHosts: ['127.0.0.1'] };

describe('fetchPage against a local server (allowlisted for the test)', () => {
  let srv: PageServer;
  before(async () => {
    srv = await startPageServer({
      '/page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      '/text': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('Plain text source. Second sentence.'),
      '/latin1': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('Caf\xe9 cr\xe8me.', 'latin1')),
      '/gzip': (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(PAGE)),
      '/pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 ...'),
      '/pdf-untyped': (_q, r) => r.writeHead(200).end('%PDF-1.4 binary'),
      '/image': (_q, r) => r.writeHead(200, { 'content-type': 'image/png' }).end('png'),
      '/big': (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-length': String(300_000) }).end('x'.repeat(300_000)),
      '/big-chunked': (_q, r) => {
        r.writeHead(200, { 'content-type': 'text/html' });
        for (let i = 0; i < 30; i++) r.write('y'.repeat(10_000));
        r.end();
      },
      '/bomb': (_q, r) => r.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(5_000_000, 0x61))),
      '/slow': () => {
        /* never answers */
      },
      '/slow-body': (_q, r) => {
        r.writeHead(200, { 'content-type': 'text/html' });
        r.write('<html><body><p>start');
      },
      '/gone': (_q, r) => r.writeHead(404).end(),
      '/410': (_q, r) => r.writeHead(410).end(),
      '/500': (_q, r) => r.writeHead(500).end(),
      '/redirect-ok': (_q, r) => r.writeHead(302, { location: '/hop1' }).end(),
      '/hop1': (_q, r) => r.writeHead(301, { location: '/page#frag' }).end(),
      '/loop': (_q, r) => r.writeHead(302, { location: '/loop' }).end(),
      '/to-metadata': (_q, r) => r.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-loopback': (_q, r, s) => r.writeHead(302, { location: `http://127.0.0.1:${s.port}/page` }).end(),
      '/to-localhost': (_q, r, s) => r.writeHead(302, { location: `http://localhost:${s.port}/page` }).end(),
      '/to-ftp': (_q, r) => r.writeHead(302, { location: 'ftp://example.com/file' }).end(),
    });
  });
  after(() => srv.close());

  it('reads an HTML page and a text page', async () => {
    const r = await fetchPage(`${srv.origin}/page`, LOCAL);
    assert.ok(r.ok);
    assert.equal(r.kind, 'html');
    assert.match(r.body, /built in 1859/);
    const t = await fetchPage(`${srv.origin}/text`, LOCAL);
    assert.ok(t.ok && t.kind === 'text' && t.body.startsWith('Plain text source'));
  });

  it('decodes the declared charset and gzip', async () => {
    const l = await fetchPage(`${srv.origin}/latin1`, LOCAL);
    assert.ok(l.ok && l.body === 'Café crème.');
    const g = await fetchPage(`${srv.origin}/gzip`, LOCAL);
    assert.ok(g.ok && /Godrevy Island/.test(g.body));
  });

  it('reports PDFs and other content types as unsupported', async () => {
    for (const path of ['/pdf', '/pdf-untyped']) {
      const r = await fetchPage(`${srv.origin}${path}`, LOCAL);
      assert.ok(!r.ok && r.status === 'unsupported', path);
      assert.match(r.reason, /PDF/);
    }
    const img = await fetchPage(`${srv.origin}/image`, LOCAL);
    assert.ok(!img.ok && img.status === 'unsupported' && /image\/png/.test(img.reason));
  });

  it('enforces the size cap by Content-Length, while streaming, and after decompression', async () => {
    for (const path of ['/big', '/big-chunked', '/bomb']) {
      const r = await fetchPage(`${srv.origin}${path}`, { ...LOCAL, maxBytes: 100_000 });
      assert.ok(!r.ok && r.status === 'unsupported', `${path}: ${JSON.stringify(r).slice(0, 300)}`);
      assert.match(r.reason, /larger than 100000 bytes/, path);
    }
  });

  it('times out on a server that never answers, or stops sending the body', async () => {
    for (const path of ['/slow', '/slow-body']) {
      const t0 = Date.now();
      const r = await fetchPage(`${srv.origin}${path}`, { ...LOCAL, timeoutMs: 300 });
      assert.ok(!r.ok && r.status === 'unreachable', path);
      assert.match(r.reason, /^could not reach 127\.0\.0\.1:\d+: timed out/, path);
      // No answer says nothing about the page: transient, not cached by the resolver.
      assert.equal(r.transient, true, path);
      assert.ok(Date.now() - t0 < 3000);
    }
  });

  it('calls 404 and 410 dead, 500 unreachable', async () => {
    const g = await fetchPage(`${srv.origin}/gone`, LOCAL);
    assert.ok(!g.ok && g.status === 'dead' && g.httpStatus === 404);
    const d = await fetchPage(`${srv.origin}/410`, LOCAL);
    assert.ok(!d.ok && d.status === 'dead');
    const e = await fetchPage(`${srv.origin}/500`, LOCAL);
    assert.ok(!e.ok && e.status === 'unreachable' && e.httpStatus === 500);
  });

  it('follows redirects by hand and stops at the redirect limit', async () => {
    const r = await fetchPage(`${srv.origin}/redirect-ok`, LOCAL);
    assert.ok(r.ok);
    assert.equal(r.finalUrl, `${srv.origin}/page`);
    assert.equal(r.redirects.length, 2);
    const limited = await fetchPage(`${srv.origin}/redirect-ok`, { ...LOCAL, maxRedirects: 1 });
    assert.ok(!limited.ok && limited.status === 'unreachable' && /more than 1 redirects/.test(limited.reason));
    const loop = await fetchPage(`${srv.origin}/loop`, LOCAL);
    assert.ok(!loop.ok && /more than 5 redirects/.test(loop.reason));
  });

  it('checks every redirect hop: metadata, other names for the same host, other schemes', async () => {
    const meta = await fetchPage(`${srv.origin}/to-metadata`, LOCAL);
    assert.ok(!meta.ok && meta.status === 'blocked' && /metadata/.test(meta.reason));
    // The allowlist names 127.0.0.1 only: "localhost" is another name and is refused.
    const lh = await fetchPage(`${srv.origin}/to-localhost`, LOCAL);
    assert.ok(!lh.ok && lh.status === 'blocked' && /loopback/.test(lh.reason));
    const ftp = await fetchPage(`${srv.origin}/to-ftp`, LOCAL);
    assert.ok(!ftp.ok && ftp.status === 'unsupported' && /scheme/.test(ftp.reason));
  });

  it('refuses a redirect to 127.0.0.1 from an allowlisted name', async () => {
    const resolver: Resolver = async (h) => (h === 'allowed.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
    const first = await fetchPage(`http://allowed.test:${srv.port}/page`, { allowHosts: ['allowed.test'], resolver });
    assert.ok(first.ok, 'the allowlisted name itself is reachable');
    const r = await fetchPage(`http://allowed.test:${srv.port}/to-loopback`, { allowHosts: ['allowed.test'], resolver });
    assert.ok(!r.ok && r.status === 'blocked');
    assert.match(r.reason, /127\.0\.0\.1 is loopback/);
  });

  it('connects to the address it checked, not to a second DNS answer', async () => {
    let calls = 0;
    // The first answer is checked and pinned; a rebinding resolver would answer differently later.
    const resolver: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '203.0.113.9', family: 4 }]);
    const r = await fetchPage(`http://pinned.test:${srv.port}/page`, { allowHosts: ['pinned.test'], resolver });
    assert.ok(r.ok);
    assert.equal(calls, 1);
  });
});

describe('SSRF guard without an allowlist (the default)', () => {
  let srv: PageServer;
  before(async () => {
    srv = await startPageServer({ '/page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(PAGE) });
  });
  after(() => srv.close());

  it('refuses 127.0.0.1, localhost, [::1], 10.x, 169.254.169.254 and obfuscated loopback forms', async () => {
    const urls = [
      `${srv.origin}/page`,
      `http://localhost:${srv.port}/page`,
      `http://[::1]:${srv.port}/page`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://[fd00:ec2::254]/',
    ];
    for (const url of urls) {
      const r = await fetchPage(url);
      assert.ok(!r.ok && r.status === 'blocked', `${url} -> ${JSON.stringify(r)}`);
    }
    assert.equal(srv.hits.length, 0, 'nothing reached the server');
  });

  it('refuses a host whose DNS answers include any private address', async () => {
    const resolver: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await assert.rejects(resolveChecked(new URL('http://mixed.example/'), { resolver }), /10\.0\.0\.7 is private/);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'http://user:secret@example.com/']) {
      const r = await fetchPage(url);
      assert.ok(!r.ok && r.status === 'unsupported', url);
    }
  });

  it('a name without DNS record is unreachable, not dead: offline, every name answers ENOTFOUND', async () => {
    const resolver: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const r = await fetchPage('http://no-such-site.example/', { resolver });
    assert.ok(!r.ok && r.status === 'unreachable' && r.transient && r.noSuchName && /^could not reach no-such-site\.example: .*ENOTFOUND/.test(r.reason), JSON.stringify(r));
  });
});
