/**
 * Source lookup under concurrency and hostile input (issue 12): one citation's trouble is that
 * citation's status, never a crash of the whole audit; one page is fetched once however it is written.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { html, startPageServer, type PageServer } from '../../test/fixtures/audit/page-server.js';
import { PageCache, type CachedPage } from './page-cache.js';
import { SourceResolver } from './resolve-source.js';
import { SnapshotFolder } from './snapshot-folder.js';

const LOCAL = { allowHosts: ['127.0.0.1'] };

function entry(url: string, i: number): CachedPage {
  return { ok: true, url, finalUrl: url, fetchedAt: new Date().toISOString(), contentType: 'text/html', document: { id: `u${i}`, title: 'T', sentences: [`Sentence ${i}.`] } };
}

describe('page cache and source lookup', () => {
  let dir: string;
  let srv: PageServer;
  let slowRequests = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-srcrob-'));
    srv = await startPageServer({
      '/live': (_q, r) => {
        slowRequests++;
        // Slow enough that every citation asks while the first fetch is still in flight.
        setTimeout(() => r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>The bridge opened in 1932 after four years of work.</p>', 'Live')), 150);
      },
    });
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes of one page under many spellings at the same moment all succeed (unique temp files) and share one key', async () => {
    const cache = new PageCache(join(dir, 'cache'));
    const spellings = ['http://127.1/page', 'http://2130706433/page', 'http://127.0.0.1/page/', 'HTTP://127.0.0.1:80/page#x', 'http://0x7f000001/page'];
    await Promise.all(Array.from({ length: 40 }, (_, i) => cache.put(entry(spellings[i % spellings.length]!, i))));
    for (const u of spellings) assert.ok((await cache.get(u))?.ok, `${u} finds the cached page`);
    assert.deepEqual((await readdir(join(dir, 'cache'))).filter((f) => f.endsWith('.tmp')), [], 'no temp file left');
    assert.equal((await readdir(join(dir, 'cache'))).length, 1, 'one entry for one page');
  });

  it('the same page cited under different spellings at once is fetched once, through the cache or not', async () => {
    for (const withCache of [true, false]) {
      slowRequests = 0;
      const fetch = withCache ? { policy: LOCAL, cache: new PageCache(join(dir, `cache-${Date.now()}`)) } : { policy: LOCAL };
      const r = new SourceResolver({ fetch });
      const urls = [`http://127.1:${srv.port}/live`, `http://2130706433:${srv.port}/live`, `http://127.0.0.1:${srv.port}/live/`, `http://127.0.0.1:${srv.port}/live?utm_source=wiki`];
      const out = await Promise.all(urls.map((url) => r.resolve({ url })));
      assert.deepEqual(out.map((o) => o.status), ['found', 'found', 'found', 'found']);
      assert.deepEqual(out.map((o) => o.url), urls, 'each citation still reports its own URL');
      assert.equal(slowRequests, 1, `withCache=${withCache}: fetched ${slowRequests} times`);
    }
  });

  it('a snapshot manifest path leaving its folder, or naming a missing file, fails that citation only', async () => {
    const snap = join(dir, 'snap');
    await mkdir(snap);
    await writeFile(join(dir, 'secret.html'), html('<p>Outside the folder.</p>', 'Secret'));
    await writeFile(
      join(snap, 'manifest.jsonl'),
      [
        { url: 'https://evil.example/a', path: '../secret.html' },
        { url: 'https://gone.example/b', path: 'missing.html' },
        { url: 'https://fine.example/c', path: 'c.html' },
      ].map((x) => JSON.stringify(x)).join('\n') + '\n',
    );
    await writeFile(join(snap, 'c.html'), html('<p>A saved page that is fine.</p>', 'Fine'));
    const r = new SourceResolver({ snapshots: await SnapshotFolder.open(snap) });
    const [evil, gone, fine] = await Promise.all(['https://evil.example/a', 'https://gone.example/b', 'https://fine.example/c'].map((url) => r.resolve({ url })));
    assert.equal(evil!.status, 'blocked');
    assert.match(evil!.reason!, /^snapshot file \.\.\/secret\.html: refused: it resolves to a path outside the snapshot folder/);
    assert.equal(evil!.document, undefined);
    assert.equal(gone!.status, 'not-found');
    assert.match(gone!.reason!, /^snapshot file missing\.html: no such file in the snapshot folder/);
    assert.equal(fine!.status, 'found');
  });
});

describe('a binary file in a snapshot folder', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-snap-bin-'));
    await writeFile(join(dir, SnapshotFolder.fileNameFor('https://photos.example/cat', '.html')), Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d', 'hex'), Buffer.alloc(200, 2)]));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is unreadable: not text, never scored as sentences', async () => {
    const r = await new SourceResolver({ snapshots: await SnapshotFolder.open(dir) }).resolve({ url: 'https://photos.example/cat' });
    assert.equal(r.status, 'unreadable');
    assert.equal(r.document, undefined);
    assert.match(r.reason!, /unreadable: not text \(NUL bytes/);
  });
});
