/**
 * Resolving what is cited through the metadata APIs, against a loopback server answering in each API's
 * documented format (test/fixtures/work-apis): Crossref, OpenAlex, Europe PMC (abstract and open full text),
 * arXiv (Atom abstract and the PDF), Open Library; the polite User-Agent and mailto; the cache; and the same
 * identifiers replayed offline from a snapshot folder keyed by identifier.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startWorkApiServer, type WorkApiServer } from '../../test/fixtures/work-apis/serve-work-apis.js';
import { PageCache } from './page-cache.js';
import { SourceResolver } from './resolve-source.js';
import { SnapshotFolder } from './snapshot-folder.js';
import { arxivWork, bookRecord, crossrefWork, europePmcWork, jatsText, markupText, type WorkRecordOptions } from './work-records.js';

describe('metadata APIs (loopback, recorded response shapes)', () => {
  let srv: WorkApiServer;
  let dir: string;
  let opts: WorkRecordOptions;
  before(async () => {
    srv = await startWorkApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-works-'));
    opts = { bases: srv.bases, email: 'editor@example.org', intervalMs: 0 };
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('Crossref: title and JATS abstract as text; mailto in the query and the User-Agent; a DOI it lacks is not-found', async () => {
    const w = await crossrefWork('10.5555/seal.2021', opts, 'https://doi.org/10.5555/seal.2021');
    assert.ok(w.ok);
    assert.equal(w.document.title, 'Grey seal pup production in Cornwall, 2016-2021');
    assert.ok(w.document.sentences.some((s) => /rose by a fifth between 2016 and 2021/.test(s)));
    assert.ok(!w.document.sentences.join(' ').includes('jats'));
    assert.ok(srv.hits.some((h) => h.startsWith('/crossref/works/10.5555/seal.2021?mailto=editor%40example.org')));
    assert.match(srv.agents.at(-1)!, /mailto:editor@example\.org/);
    const none = await crossrefWork('10.5555/unknown', opts, 'https://doi.org/10.5555/unknown');
    assert.ok(!none.ok && none.notFound);
  });

  it('DataCite: a DOI Crossref does not hold (a Zenodo dataset) is read from DataCite\'s abstract; one neither holds says both', async () => {
    const w = await crossrefWork('10.5281/zenodo.5550001', opts, 'https://doi.org/10.5281/zenodo.5550001');
    assert.ok(w.ok && w.api === 'datacite', JSON.stringify(w));
    assert.equal(w.document.title, 'Grey seal pup counts at Godrevy, 2016-2021 (dataset)');
    assert.ok(w.document.sentences.some((s) => /Pup production rose by a fifth between 2016 and 2021/.test(s)));
    assert.ok(!w.document.sentences.some((s) => /Version 2/.test(s)), 'only the Abstract description is read');
    assert.equal(w.landingUrl, 'https://zenodo.org/record/5550001');
    assert.ok(srv.hits.includes('/datacite/dois/10.5281/zenodo.5550001'));
    const none = await crossrefWork('10.5555/unknown', opts, 'https://doi.org/10.5555/unknown');
    assert.ok(!none.ok && /api\.crossref|crossref/i.test(none.reason) && /datacite/i.test(none.reason), none.ok ? '' : none.reason);
  });

  it('OpenAlex only where allowed: a DOI without Crossref abstract gets the inverted-index abstract', async () => {
    const off = await crossrefWork('10.5555/no-abstract', opts, 'https://doi.org/10.5555/no-abstract');
    assert.ok(!off.ok && /no abstract/.test(off.reason));
    const on = await crossrefWork('10.5555/no-abstract', { ...opts, openAbstracts: true }, 'https://doi.org/10.5555/no-abstract');
    assert.ok(on.ok && on.api === 'openalex');
    assert.ok(on.document.sentences.some((s) => s.includes('Seals hauled out at nine sites on the Lizard peninsula.')));
  });

  it('Europe PMC: a PMID with open full text reads the JATS body; an unknown PMID is a work not found', async () => {
    const w = await europePmcWork('pmid', '31234567', opts, 'https://pubmed.ncbi.nlm.nih.gov/31234567/');
    assert.ok(w.ok && w.fullText);
    assert.ok(w.document.sentences.some((s) => /Two bites became infected/.test(s)));
    assert.ok(srv.hits.some((h) => h.startsWith('/europepmc/search?query=EXT_ID%3A31234567+AND+SRC%3AMED&resultType=core&format=json&email=editor%40example.org')));
    const pmc = await europePmcWork('pmc', '7654321', opts, 'https://pmc.ncbi.nlm.nih.gov/articles/PMC7654321/');
    assert.ok(pmc.ok);
    const none = await europePmcWork('pmid', '1', opts, 'https://pubmed.ncbi.nlm.nih.gov/1/');
    assert.ok(!none.ok && none.notFound);
    assert.match(none.reason, /cited work not found: Europe PMC has no PubMed id 1/);
  });

  it('arXiv: the Atom entry gives title, abstract and PDF link; an empty feed is a work not found', async () => {
    const w = await arxivWork('2101.00001', opts, 'https://arxiv.org/abs/2101.00001');
    assert.ok(w.ok);
    assert.equal(w.document.title, 'Counting seals from drone images');
    assert.ok(w.document.sentences.some((s) => /within five percent/.test(s)));
    assert.equal(w.pdfUrl, 'http://arxiv.org/pdf/2101.00001v1');
    const none = await arxivWork('2199.99999', opts, 'https://arxiv.org/abs/2199.99999');
    assert.ok(!none.ok && none.notFound);
  });

  it('Open Library: a book record in words; an unknown ISBN says so', async () => {
    assert.deepEqual(await bookRecord('978-0-85025-234-5', opts), { found: true, text: 'Open Library: "Seals of Cornwall", Tor Mark Press, 1998, 128 pages' });
    assert.deepEqual(await bookRecord('9780000000002', opts), { found: false, text: 'Open Library has no record of ISBN 9780000000002' });
  });

  it('markup to text: JATS paragraphs and entities; a JATS article', () => {
    assert.equal(markupText('<jats:p>A &amp; B</jats:p><jats:p>C</jats:p>'), 'A & B\n\nC');
    assert.match(jatsText('<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front><body><p>x y</p></body></article>'), /^T\n\nx y$/);
  });

  it('the resolver: each identifier found through its API (via api), the arXiv PDF read, the DOI after its landing page refuses', async () => {
    const cache = new PageCache(join(dir, 'cache'));
    const resolver = new SourceResolver({ fetch: { wayback: false, cache, works: opts } });
    const doi = await resolver.resolve({ ids: { doi: '10.5555/seal.2021' } });
    assert.equal(doi.status, 'found', doi.reason);
    assert.equal(doi.via, 'api');
    assert.equal(doi.url, 'https://doi.org/10.5555/seal.2021');
    assert.deepEqual(doi.resolvedBy, { api: 'crossref', fullText: false });
    // The landing page was tried first, through the doi mirror, and refused (403).
    assert.ok(doi.attempts.some((a) => a.via === 'fetch' && a.outcome === 'unreachable' && a.reason === 'HTTP 403'), JSON.stringify(doi.attempts));
    const pmid = await resolver.resolve({ ids: { pmid: '31234567' } });
    assert.equal(pmid.status, 'found');
    assert.deepEqual(pmid.resolvedBy, { api: 'europepmc', fullText: true });
    const arxiv = await resolver.resolve({ ids: { arxiv: '2101.00001' } });
    assert.equal(arxiv.status, 'found', arxiv.reason);
    assert.deepEqual(arxiv.resolvedBy, { api: 'arxiv', fullText: true });
    assert.equal(arxiv.document!.sentencePages?.at(-1), 2);
    const missing = await resolver.resolve({ ids: { arxiv: '2199.99999' } });
    assert.equal(missing.status, 'not-found');
    assert.equal(missing.workNotFound, true);
    // A DOI unknown to doi.org (its mirror) is still a work not found.
    const unknown = await resolver.resolve({ ids: { doi: '10.5555/does-not-exist' } });
    assert.equal(unknown.workNotFound, true, unknown.reason);
    assert.match(unknown.reason!, /^cited work not found: doi\.org has no DOI/);
    const book = await resolver.resolve({ ids: { isbn: '9780850252345' } });
    assert.equal(book.status, 'no-url');
    assert.equal(book.reason, 'a book (ISBN 9780850252345): its page text is not available to check against; Open Library: "Seals of Cornwall", Tor Mark Press, 1998, 128 pages');

    // A second resolver reads the API answers from the cache: no new requests.
    const before = srv.hits.length;
    const again = await new SourceResolver({ fetch: { wayback: false, cache, works: opts } }).resolve({ ids: { pmid: '31234567' } });
    assert.equal(again.status, 'found');
    assert.equal(srv.hits.length, before);
  });

  it('spaces requests to one API by its polite interval', async () => {
    const t0 = performance.now();
    await Promise.all(['2199.00001', '2199.00002', '2199.00003'].map((id) => arxivWork(id, { ...opts, intervalMs: 120 }, `https://arxiv.org/abs/${id}`)));
    assert.ok(performance.now() - t0 >= 230, `three requests 120 ms apart took ${performance.now() - t0} ms`);
  });

  it('offline: the same identifiers replay from a snapshot folder keyed by identifier', async () => {
    const snap = join(dir, 'snap');
    await import('node:fs/promises').then((fs) => fs.mkdir(snap));
    await writeFile(join(snap, 'seal.txt'), 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.');
    await writeFile(join(snap, 'bites.txt'), 'Seal bites are rare injuries among surfers.');
    await writeFile(join(snap, 'manifest.jsonl'), [JSON.stringify({ doi: '10.5555/seal.2021', path: 'seal.txt' }), JSON.stringify({ pmid: '31234567', url: 'https://example.org/bites', path: 'bites.txt' })].join('\n') + '\n');
    const r = new SourceResolver({ snapshots: await SnapshotFolder.open(snap) });
    const doi = await r.resolve({ ids: { doi: '10.5555/seal.2021' } });
    assert.equal(doi.status, 'found');
    assert.equal(doi.via, 'snapshot');
    // Found by its PMID although the DOI is its primary identifier; and by the entry's URL.
    assert.equal((await r.resolve({ ids: { doi: '10.5555/other', pmid: '31234567' } })).status, 'found');
    assert.equal((await r.resolve({ url: 'https://example.org/bites' })).status, 'found');
  });
});
