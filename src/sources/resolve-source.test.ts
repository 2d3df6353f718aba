import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Document } from '../corpus/types.js';
import type { Store } from '../store/types.js';
import { normalizeUrl } from '../store/url.js';
import { html, startPageServer, type PageServer } from '../../test/fixtures/audit/page-server.js';
import { originalFromArchiveUrl, waybackUrl } from './archive.js';
import { PageCache } from './page-cache.js';
import { SourceResolver } from './resolve-source.js';
import { SnapshotFolder } from './snapshot-folder.js';

const LOCAL = { allowHosts: ['127.0.0.1'] };

/** The one Store method source lookup uses. */
function fakeStore(docs: Document[]): Store {
  return { findDocumentsByUrl: async (url: string) => docs.filter((d) => d.url && normalizeUrl(d.url) === normalizeUrl(url)) } as unknown as Store;
}

describe('SourceResolver', () => {
  let srv: PageServer;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-sources-'));
    srv = await startPageServer({
      '/live': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>The live page says the bridge opened in 1932.</p>', 'Live')),
      '/gone': (_q, r) => r.writeHead(404).end(),
      '/archived': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>The archived copy says the bridge opened in 1932.</p>', 'Archived')),
      '/empty': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><script>app()</script></body></html>'),
      '/doc.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.5'),
    }, (req, res) => {
      // Wayback form: /wayback/<timestamp>id_/<original url>
      if (req.url?.startsWith('/wayback/')) res.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>Wayback copy of the page.</p>', 'Wayback'));
      else res.writeHead(404).end();
    });
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the indexed page by normalised URL, then by archive URL and the original inside it', async () => {
    const doc: Document = { id: 'd1', title: 'Bridge', url: 'https://www.example.org/bridge/', sentences: ['It opened in 1932.'] };
    const r = new SourceResolver({ store: fakeStore([doc]) });
    const a = await r.resolve({ url: 'http://example.org/bridge?utm_source=x' });
    assert.equal(a.status, 'found');
    assert.equal(a.via, 'index');
    assert.equal(a.docId, 'd1');
    const b = await r.resolve({ archiveUrl: 'https://web.archive.org/web/20190101000000/https://example.org/bridge' });
    assert.equal(b.status, 'found');
    assert.equal(b.usedUrl, 'https://example.org/bridge');
  });

  it('says not-found (never unsupported) when the page is nowhere and fetch is off, and no-url without URL', async () => {
    const r = new SourceResolver({ store: fakeStore([]) });
    const a = await r.resolve({ url: 'https://nowhere.example/page' });
    assert.equal(a.status, 'not-found');
    assert.equal(a.document, undefined);
    assert.equal((await r.resolve({ title: 'A book' })).status, 'no-url');
    // a book known by its ISBN says so; a PubMed Central id is looked up like a URL
    const book = await r.resolve({ title: 'A book', ids: { isbn: '978-0-12-345678-9' } });
    assert.equal(book.status, 'no-url');
    assert.match(book.reason!, /^a book \(ISBN 978-0-12-345678-9\)/);
    const pmc = await r.resolve({ ids: { pmc: '1326979' } });
    assert.equal(pmc.status, 'not-found');
    assert.equal(pmc.url, 'https://pmc.ncbi.nlm.nih.gov/articles/PMC1326979/');
    assert.equal(srv.hits.length, 0);
  });

  it('reads a snapshot folder through manifest.jsonl or hashed file names; a broken PDF is unreadable', async () => {
    const snap = join(dir, 'snap');
    await import('node:fs/promises').then((fs) => fs.mkdir(snap));
    await writeFile(join(snap, 'manifest.jsonl'), JSON.stringify({ url: 'https://news.example/a', path: 'a.html' }) + '\n');
    await writeFile(join(snap, 'a.html'), html('<p>Saved article text about the bridge.</p>', 'Saved A'));
    await writeFile(join(snap, SnapshotFolder.fileNameFor('https://blog.example/b', '.txt')), 'Saved plain text. Another sentence.');
    await writeFile(join(snap, SnapshotFolder.fileNameFor('https://files.example/c.pdf', '.pdf')), '%PDF');
    const r = new SourceResolver({ snapshots: await SnapshotFolder.open(snap) });
    const a = await r.resolve({ url: 'http://www.news.example/a/' });
    assert.equal(a.status, 'found');
    assert.equal(a.via, 'snapshot');
    assert.match(a.document!.sentences.join(' '), /Saved article text/);
    assert.doesNotMatch(a.document!.sentences.join(' '), /Copyright footer/, 'main text only');
    const b = await r.resolve({ url: 'https://blog.example/b' });
    assert.deepEqual(b.document!.sentences, ['Saved plain text.', 'Another sentence.']);
    const c = await r.resolve({ url: 'https://files.example/c.pdf' });
    assert.equal(c.status, 'unreadable');
    assert.match(c.reason!, /not a valid PDF/);
  });

  it('fetches live only when enabled, and extracts the main text', async () => {
    const r = new SourceResolver({ fetch: { policy: LOCAL } });
    const a = await r.resolve({ url: `${srv.origin}/live` });
    assert.equal(a.status, 'found');
    assert.equal(a.via, 'fetch');
    assert.deepEqual(a.document!.sentences.filter((s) => /bridge/.test(s)), ['The live page says the bridge opened in 1932.']);
  });

  it('falls back to the archive URL when the page is dead', async () => {
    const r = new SourceResolver({ fetch: { policy: LOCAL } });
    const a = await r.resolve({ url: `${srv.origin}/gone`, archiveUrl: `${srv.origin}/archived` });
    assert.equal(a.status, 'found');
    assert.equal(a.via, 'archive');
    assert.deepEqual(a.attempts.map((t) => t.outcome), ['dead', 'found']);
    assert.match(a.document!.sentences.join(' '), /archived copy/);
  });

  it('reads the archive first when the citation marks the URL dead', async () => {
    const before = srv.hits.length;
    const r = new SourceResolver({ fetch: { policy: LOCAL } });
    const a = await r.resolve({ url: `${srv.origin}/live`, archiveUrl: `${srv.origin}/archived`, deadUrl: true });
    assert.equal(a.via, 'archive');
    assert.deepEqual(srv.hits.slice(before), ['/archived']);
  });

  it('tries the Wayback form when a dead page has no archive URL', async () => {
    const r = new SourceResolver({ fetch: { policy: LOCAL, waybackBase: `${srv.origin}/wayback/` } });
    const a = await r.resolve({ url: `${srv.origin}/gone`, accessDate: '2019-05-03' });
    assert.equal(a.status, 'found');
    assert.equal(a.via, 'archive');
    assert.ok(srv.hits.includes(`/wayback/20190503id_/${srv.origin}/gone`));
  });

  it('reports a dead page with no archived copy as dead, a broken PDF as unreadable, an empty page as unsupported', async () => {
    const r = new SourceResolver({ fetch: { policy: LOCAL, wayback: false } });
    const dead = await r.resolve({ url: `${srv.origin}/gone` });
    assert.equal(dead.status, 'dead');
    assert.equal(dead.document, undefined);
    const pdf = await r.resolve({ url: `${srv.origin}/doc.pdf` });
    assert.equal(pdf.status, 'unreadable');
    assert.equal(pdf.attempts.length, 1, 'no archive attempt for an unreadable PDF');
    assert.equal((await r.resolve({ url: `${srv.origin}/empty` })).status, 'unsupported');
    const both = await r.resolve({ url: `${srv.origin}/gone`, archiveUrl: `${srv.origin}/also-gone`, deadUrl: true });
    assert.equal(both.status, 'dead');
    assert.match(both.reason!, /HTTP 404; archived copy: HTTP 404|archived copy: HTTP 404; HTTP 404/);
  });

  it('blocks private addresses even with fetch on (no allowlist)', async () => {
    const r = new SourceResolver({ fetch: { wayback: false } });
    const a = await r.resolve({ url: `${srv.origin}/live` });
    assert.equal(a.status, 'blocked');
  });

  it('serves a second run from the on-disk cache', async () => {
    const cache = new PageCache(join(dir, 'cache'));
    const first = await new SourceResolver({ fetch: { policy: LOCAL, cache } }).resolve({ url: `${srv.origin}/live` });
    assert.equal(first.via, 'fetch');
    const hits = srv.hits.length;
    const second = await new SourceResolver({ fetch: { policy: LOCAL, cache } }).resolve({ url: `${srv.origin}/live` });
    assert.equal(second.via, 'cache');
    assert.deepEqual(second.document, first.document);
    assert.equal(srv.hits.length, hits, 'no request');
    // Expired entries are fetched again.
    assert.equal(await new PageCache(join(dir, 'cache'), { maxAgeMs: 0 }).get(`${srv.origin}/live`, Date.now() + 10), undefined);
  });
});

describe('archive URLs', () => {
  it('builds the Wayback form and reads the original back', () => {
    assert.equal(waybackUrl('http://x.org/a', '3 May 2019'), 'https://web.archive.org/web/20190503id_/http://x.org/a');
    assert.equal(waybackUrl('http://x.org/a'), 'https://web.archive.org/web/2id_/http://x.org/a');
    assert.equal(originalFromArchiveUrl('https://web.archive.org/web/20160304054405/http://www.bbc.co.uk/news/x'), 'http://www.bbc.co.uk/news/x');
    assert.equal(originalFromArchiveUrl('http://archive.today/2019.01.01/x'), undefined);
    assert.equal(originalFromArchiveUrl('https://www.webcitation.org/6ZxYz'), undefined);
  });
});
