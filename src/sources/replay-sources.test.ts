/**
 * Source lookup through the real fetcher against recorded responses (loopback replay server, test DNS):
 * pages, PDFs with pages, a scan, redirects, 404s, and DOI / arXiv / PubMed resolution.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { html } from '../../test/fixtures/audit/page-server.js';
import { makeScannedPdf, makeTextPdf } from '../../test/fixtures/pdf/make-pdf.js';
import { startReplayServer, type ReplayServer } from '../../test/fixtures/replay/replay-server.js';
import { fetchPage } from './http-fetch.js';
import { SourceResolver } from './resolve-source.js';
import { SnapshotFolder } from './snapshot-folder.js';

const PDF_PAGES = [
  ['The 2021 survey counted 412 grey seals on the north coast of Cornwall.', 'Counts were made from the cliffs at low tide on three mornings in October.'],
  ['Pup numbers rose by a fifth compared with the survey of 2016, mostly at Godrevy.', 'Disturbance by walkers and dogs remained the main threat to the colony.'],
];

describe('sources through the replay server', () => {
  let srv: ReplayServer;
  let resolver: SourceResolver;
  before(async () => {
    const PDF = 'application/pdf';
    srv = await startReplayServer([
      { url: 'https://news.example/seals', status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html('<p>Seal pups were born at Godrevy beach this winter.</p>', 'Seals') },
      { url: 'https://news.example/old', status: 301, headers: { location: 'https://news.example/seals' } },
      { url: 'https://trust.example/survey.pdf', status: 200, headers: { 'content-type': PDF }, body: await makeTextPdf(PDF_PAGES, { title: 'Seal survey 2021' }) },
      { url: 'https://trust.example/untyped', status: 200, headers: { 'content-type': 'application/octet-stream' }, body: await makeTextPdf(PDF_PAGES) },
      { url: 'https://trust.example/scan.pdf', status: 200, headers: { 'content-type': PDF }, body: await makeScannedPdf(2) },
      // doi.org: an existing DOI redirects to the publisher; an unknown one is a 404 from doi.org itself.
      { url: 'https://doi.org/10.5555/seal.2021', status: 302, headers: { location: 'https://journal.example/articles/seal-2021' } },
      { url: 'https://journal.example/articles/seal-2021', status: 200, headers: { 'content-type': 'text/html' }, body: html('<p>Grey seal pup production in Cornwall rose between 2016 and 2021.</p>', 'Seal pups') },
      { url: 'https://doi.org/10.5555/moved', status: 302, headers: { location: 'https://journal.example/articles/removed' } },
      { url: 'https://doi.org/10.5555/does-not-exist', status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>DOI Not Found</body></html>' },
      { url: 'https://arxiv.org/abs/2101.00001', status: 200, headers: { 'content-type': 'text/html' }, body: html('<p>Abstract: we count seals from drone images.</p>', 'Counting seals') },
      // The Wayback Machine's host (a capture of another page): any other archive URL answers 404, no capture.
      { url: 'https://web.archive.org/web/2021id_/https://news.example/seals', status: 200, headers: { 'content-type': 'text/html' }, body: html('<p>Seal pups were born at Godrevy beach this winter.</p>', 'Seals') },
      { url: 'https://pubmed.ncbi.nlm.nih.gov/31234567/', status: 200, headers: { 'content-type': 'text/html' }, body: html('<p>Seal bites are rare injuries among surfers.</p>', 'Seal bites') },
    ]);
    resolver = new SourceResolver({ fetch: { policy: srv.fetchPolicy, route: srv.route, wayback: false } });
  });
  after(() => srv.close());

  it('fetches a page after a redirect; a domain the test DNS does not know is dead only when the archive answers', async () => {
    const r = await resolver.resolve({ url: 'https://news.example/old' });
    assert.equal(r.status, 'found');
    assert.match(r.document!.sentences.join(' '), /Seal pups were born/);
    // Alone, a name without DNS answer is what offline looks like.
    const alone = await resolver.resolve({ url: 'https://gone.example/page' });
    assert.equal(alone.status, 'unreachable');
    assert.match(alone.reason!, /^could not reach gone\.example: .*ENOTFOUND/);
    // The archive (recorded host, no capture of this page: 404) answers, so the network works: the domain is gone.
    const withArchive = new SourceResolver({ fetch: { policy: srv.fetchPolicy, route: srv.route } });
    const gone = await withArchive.resolve({ url: 'https://gone.example/page' });
    assert.equal(gone.status, 'dead');
    assert.match(gone.reason!, /ENOTFOUND.*; archived copy: HTTP 404/);
  });

  it('reads a fetched PDF (declared or sniffed) page by page; a scan is unreadable', async () => {
    for (const url of ['https://trust.example/survey.pdf', 'https://trust.example/untyped']) {
      const r = await resolver.resolve({ url });
      assert.equal(r.status, 'found', url);
      const doc = r.document!;
      const pup = doc.sentences.findIndex((s) => s.startsWith('Pup numbers rose'));
      assert.ok(pup > 0, url);
      assert.equal(doc.sentencePages![pup], 2);
      assert.equal(doc.sentencePages![0], 1);
    }
    assert.equal((await resolver.resolve({ url: 'https://trust.example/survey.pdf' })).document!.title, 'Seal survey 2021');
    const scan = await resolver.resolve({ url: 'https://trust.example/scan.pdf' });
    assert.equal(scan.status, 'unreadable');
    assert.equal(scan.document, undefined);
    assert.match(scan.reason!, /no text layer/);
  });

  it('without pdf: true, the fetcher still reports PDFs as unsupported', async () => {
    const r = await fetchPage(srv.route('https://trust.example/survey.pdf'), srv.fetchPolicy);
    assert.ok(!r.ok && r.status === 'unsupported' && /PDF/.test(r.reason));
  });

  it('resolves identifiers: DOI via redirect, arXiv and PubMed pages; a DOI unknown to doi.org is a work not found', async () => {
    const doi = await resolver.resolve({ ids: { doi: '10.5555/seal.2021' } });
    assert.equal(doi.status, 'found');
    assert.equal(doi.url, 'https://doi.org/10.5555/seal.2021');
    assert.match(doi.usedUrl!, /journal\.example(:\d+)?\/articles\/seal-2021$/);
    assert.equal((await resolver.resolve({ ids: { arxiv: '2101.00001' } })).status, 'found');
    assert.equal((await resolver.resolve({ ids: { pmid: '31234567' } })).status, 'found');

    const missing = await resolver.resolve({ ids: { doi: '10.5555/does-not-exist' } });
    assert.equal(missing.status, 'not-found');
    assert.equal(missing.workNotFound, true);
    assert.match(missing.reason!, /^cited work not found: doi\.org has no DOI 10\.5555\/does-not-exist \(HTTP 404\)/);
    // Written as a doi.org URL, the same.
    assert.equal((await resolver.resolve({ url: 'https://doi.org/10.5555/does-not-exist' })).workNotFound, true);
    const arxiv = await resolver.resolve({ ids: { arxiv: '2199.99999' } });
    assert.equal(arxiv.status, 'not-found');
    assert.match(arxiv.reason!, /arxiv\.org has no arXiv id 2199\.99999/);
  });

  it('a DOI whose publisher page is gone is a dead link, not a missing work', async () => {
    const r = await resolver.resolve({ ids: { doi: '10.5555/moved' } });
    assert.equal(r.status, 'dead');
    assert.equal(r.workNotFound, undefined);
  });

  it('a cited URL wins over the identifiers; no URL and no identifier is no-url', async () => {
    const r = await resolver.resolve({ url: 'https://news.example/seals', ids: { doi: '10.5555/does-not-exist' } });
    assert.equal(r.status, 'found');
    const none = await resolver.resolve({ title: 'A book' });
    assert.equal(none.status, 'no-url');
  });
});

describe('PDFs in a snapshot folder', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-snap-pdf-'));
    await writeFile(join(dir, SnapshotFolder.fileNameFor('https://trust.example/survey.pdf', '.pdf')), await makeTextPdf(PDF_PAGES));
    await writeFile(join(dir, 'scan.pdf'), await makeScannedPdf(1));
    await writeFile(join(dir, 'manifest.jsonl'), JSON.stringify({ url: 'https://trust.example/scan', path: 'scan.pdf' }) + '\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads a saved PDF with its pages; a saved scan is unreadable', async () => {
    const r = new SourceResolver({ snapshots: await SnapshotFolder.open(dir) });
    const found = await r.resolve({ url: 'https://trust.example/survey.pdf' });
    assert.equal(found.status, 'found');
    assert.equal(found.via, 'snapshot');
    assert.ok(found.document!.sentencePages!.includes(2));
    const scan = await r.resolve({ url: 'https://trust.example/scan' });
    assert.equal(scan.status, 'unreadable');
    assert.match(scan.reason!, /OCR/);
  });
});
