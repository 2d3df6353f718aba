/**
 * Offline is not a dead link. A page whose server answers 404/410 is dead (and cached as such); a name
 * without DNS answer, a refused connection or a timeout is "could not reach ..." and is not cached: being
 * offline today says nothing about the page. A name without DNS answer is dead only when the archive's
 * server answered on the same run (the network works, so the name is gone).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { html, startPageServer, type PageServer } from '../../test/fixtures/audit/page-server.js';
import { citationStatus } from '../audit/citation-status.js';
import { fetchPage } from './http-fetch.js';
import { PageCache } from './page-cache.js';
import { SourceResolver } from './resolve-source.js';
import type { Resolver } from './ssrf-guard.js';

/** DNS as it answers offline (getaddrinfo says ENOTFOUND for every name), or with a temporary failure. */
const noDns =
  (code: string): Resolver =>
  async (hostname) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code });
  };

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const statusOf = (r: Awaited<ReturnType<SourceResolver['resolve']>>) => citationStatus({ source: r });

describe('offline is not a dead link', () => {
  let srv: PageServer;
  let dir: string;
  before(async () => {
    srv = await startPageServer({
      '/page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>The lighthouse was built in 1859.</p>')),
      '/gone': (_q, r) => r.writeHead(404).end(),
      '/binary': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d', 'hex'), Buffer.alloc(100, 1)])),
    });
    dir = await mkdtemp(join(tmpdir(), 'vc-offline-'));
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  const resolverWith = (cacheDir: string, extra: { resolver?: Resolver; waybackBase?: string } = {}) =>
    new SourceResolver({
      fetch: {
        cache: new PageCache(cacheDir),
        policy: { allowHosts: ['127.0.0.1'], timeoutMs: 2000, totalTimeoutMs: 4000, ...(extra.resolver ? { resolver: extra.resolver } : {}) },
        ...(extra.waybackBase ? { waybackBase: extra.waybackBase } : { wayback: false }),
      },
    });

  it('HTTP 404 from a loopback server is a dead link, and cached', async () => {
    const cacheDir = join(dir, 'dead');
    const r = await resolverWith(cacheDir).resolve({ url: `${srv.origin}/gone` });
    assert.equal(r.status, 'dead');
    assert.equal(statusOf(r).label, 'dead link');
    const cached = await new PageCache(cacheDir).get(`${srv.origin}/gone`);
    assert.ok(cached && !cached.ok && cached.status === 'dead' && cached.httpStatus === 404);
  });

  it('a name without DNS answer (offline: ENOTFOUND; EAI_AGAIN) is "could not reach", and not cached', async () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      const cacheDir = join(dir, `dns-${code}`);
      const url = 'https://news.example.invalid/story';
      const r = await resolverWith(cacheDir, { resolver: noDns(code) }).resolve({ url });
      assert.equal(r.status, 'unreachable', code);
      const status = statusOf(r);
      assert.equal(status.label, 'could not check');
      assert.match(status.reason, new RegExp(`^could not reach news\\.example\\.invalid: no DNS answer for news\\.example\\.invalid \\(${code}`));
      assert.equal(await new PageCache(cacheDir).get(url), undefined, 'not cached');
      assert.deepEqual(await readdir(cacheDir).catch(() => []), []);
      const direct = await fetchPage(url, { resolver: noDns(code) });
      assert.ok(!direct.ok && direct.transient === true && direct.status === 'unreachable');
    }
  });

  it('a refused connection is "could not reach", not cached', async () => {
    const cacheDir = join(dir, 'refused');
    const url = `http://127.0.0.1:${await closedPort()}/page`;
    const r = await resolverWith(cacheDir).resolve({ url });
    assert.equal(r.status, 'unreachable');
    assert.match(statusOf(r).reason, /^could not reach 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/);
    assert.equal(await new PageCache(cacheDir).get(url), undefined);
  });

  it('offline, the archive fails too: still "could not reach", never dead', async () => {
    const r = await resolverWith(join(dir, 'both'), { resolver: noDns('ENOTFOUND'), waybackBase: 'https://web.archive.invalid/web/' }).resolve({ url: 'https://news.example.invalid/story' });
    assert.equal(r.status, 'unreachable');
    assert.match(r.reason!, /could not reach news\.example\.invalid.*; archived copy: could not reach web\.archive\.invalid/);
  });

  it('a name without DNS answer while the archive answers (no capture) is a dead link', async () => {
    // Only the cited name fails to resolve; the archive (the loopback server: 404, no capture) answers.
    const resolver: Resolver = async (h) => (h === '127.0.0.1' ? [{ address: '127.0.0.1', family: 4 }] : noDns('ENOTFOUND')(h));
    const r = await resolverWith(join(dir, 'gone-domain'), { resolver, waybackBase: `${srv.origin}/web/` }).resolve({ url: 'https://expired-domain.invalid/story' });
    assert.equal(r.status, 'dead');
    assert.equal(statusOf(r).label, 'dead link');
    assert.match(r.reason!, /ENOTFOUND.*; archived copy: HTTP 404/);
  });

  it('a fetched page declared as text that is binary data is unreadable: not text', async () => {
    const r = await fetchPage(`${srv.origin}/binary`, { allowHosts: ['127.0.0.1'] });
    assert.ok(!r.ok && r.status === 'unsupported' && /^unreadable: not text \(NUL bytes/.test(r.reason), JSON.stringify(r));
  });
});
