/**
 * The search providers against a loopback server answering in each API's documented shape
 * (test/fixtures/search), the collector (queries, merge, budget, exclusions, failures named), the cache and
 * its offline replay, and the citation templates.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import { html, startPageServer } from '../../test/fixtures/audit/page-server.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { PageCache } from '../sources/page-cache.js';
import { citeTemplate } from './cite-template.js';
import { searchSources } from './collect.js';
import { copiesArticle, wikipediaCopyReason } from './mirrors.js';
import { PROVIDERS } from './providers/index.js';
import { searchQueries } from './queries.js';
import { SearchCache } from './search-cache.js';
import { SearchClient } from './search-client.js';
import { SEARCH_PROVIDERS } from './types.js';

const CLAIM = 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.';

describe('search providers (loopback, documented shapes)', () => {
  let srv: SearchApiServer;
  let dir: string;
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-search-'));
    process.env.BRAVE_SEARCH_API_KEY = 'test-key';
  });
  after(async () => {
    delete process.env.BRAVE_SEARCH_API_KEY;
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });
  const client = (extra: Partial<ConstructorParameters<typeof SearchClient>[0]> = {}) => new SearchClient({ bases: srv.bases, intervalMs: 0, email: 'editor@example.org', ...extra });

  it('each provider reads its answer: URL, title, text, identifiers', async () => {
    const c = client();
    const got = Object.fromEntries(await Promise.all(SEARCH_PROVIDERS.map(async (p) => [p, await PROVIDERS[p].search('seal pups', 5, c)] as const)));
    assert.deepEqual(got.wikipedia!.map((h) => h.url), ['https://en.wikipedia.org/wiki/Godrevy_Lighthouse', 'https://en.wikipedia.org/wiki/Grey_seal', 'https://en.wikipedia.org/wiki/St_Ives_Bay']);
    assert.equal(got.wikipedia![0]!.text, 'Godrevy Lighthouse was built in 1858–1859 on Godrevy Island in St Ives Bay');
    const alex = got.openalex![0]!;
    assert.equal(alex.url, 'https://doi.org/10.5555/seal.pups.2022');
    assert.equal(alex.text, 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021. Counts were made from the cliffs.');
    assert.equal(alex.textKind, 'abstract');
    assert.deepEqual([alex.journal, alex.date, alex.pmid, alex.authors], ['Journal of Coastal Ecology', '2022-01-15', '35000001', ['Ann Trewin', 'Peter Hosking']]);
    assert.equal(got.openalex![1]!.url, 'https://marine.example/porpoise', 'no DOI: the landing page');
    const pmc = got.europepmc![0]!;
    assert.deepEqual([pmc.url, pmc.title, pmc.pmid, pmc.pmcid, pmc.journal, pmc.openAccess], ['https://doi.org/10.5555/seal.survey.2023', 'Counting grey seal pups on the north coast of Cornwall', '35000002', 'PMC9000002', 'Marine Mammal Survey', undefined]);
    assert.match(pmc.text!, /^Grey seal pup production in Cornwall rose/);
    const cr = got.crossref![0]!;
    assert.deepEqual([cr.url, cr.doi, cr.date, cr.journal], ['https://doi.org/10.5555/seal.trend.2022', '10.5555/seal.trend.2022', '2022-06', 'Journal of Coastal Ecology']);
    assert.equal(cr.text, 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.\n\nThe increase was largest at Godrevy.');
    assert.deepEqual(got.searxng!.map((h) => h.url), ['https://www.wikiwand.com/en/articles/Grey_seal', 'https://news.example/cornwall-seal-pups']);
    assert.equal(got.brave![0]!.text, 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021, a survey found. Pups were counted from the cliffs in October.');
    // The key went in its header, to Brave only; the contact e-mail to the polite pools.
    const braveAt = srv.hits.findIndex((h) => h.startsWith('/brave/'));
    assert.equal(srv.headers[braveAt]!['x-subscription-token'], 'test-key');
    assert.ok(srv.headers.every((h, i) => i === braveAt || !h['x-subscription-token']));
    assert.ok(srv.hits.some((h) => h.startsWith('/openalex/works?') && h.includes('mailto=editor%40example.org')));
    assert.ok(srv.hits.some((h) => h.startsWith('/europepmc/search?') && h.includes('email=editor%40example.org')));
  });

  it('a provider that cannot answer says why: no instance, no key, HTTP errors', async () => {
    await assert.rejects(PROVIDERS.searxng.search('x', 5, new SearchClient({ intervalMs: 0 })), /no instance set: give its address with --api-base searxng=/);
    delete process.env.BRAVE_SEARCH_API_KEY;
    await assert.rejects(PROVIDERS.brave.search('x', 5, client()), /no API key: set BRAVE_SEARCH_API_KEY/);
    process.env.BRAVE_SEARCH_API_KEY = 'test-key';
    srv.fail.add('crossref');
    try {
      await assert.rejects(PROVIDERS.crossref.search('x', 5, client()), /127\.0\.0\.1:\d+ answered HTTP 500/);
    } finally {
      srv.fail.delete('crossref');
    }
  });

  it('queries: keywords (with the article title when the claim lacks it), names and figures, the sentence', () => {
    assert.deepEqual(searchQueries({ claim: 'It was built in 1859 by the engineer James Walker.[3]', articleTitle: 'Pendrick Lighthouse' }, 3), [
      'Pendrick Lighthouse built 1859 engineer James Walker',
      'Pendrick Lighthouse 1859 James Walker',
      'It was built in 1859 by the engineer James Walker',
    ]);
    assert.deepEqual(searchQueries(CLAIM, 1), ['Grey seal pup production Cornwall rose fifth 2016 2021']);
  });

  it('collects: providers merged by rank, one entry per DOI, Wikipedia text read, mirrors and the article excluded, within budget', async () => {
    const pages: string[] = [];
    const { sources, report } = await searchSources(
      { claim: CLAIM, articleTitle: 'Grey seal' },
      {
        providers: ['wikipedia', 'openalex', 'searxng'],
        client: client(),
        budget: { queries: 3, fetches: 2, perQuery: 5 },
        readPage: async (url) => (pages.push(url), { ok: false, reason: `could not reach ${new URL(url).host}: test` }),
        exclude: (h) => wikipediaCopyReason(h.url) && h.wiki?.title !== 'Godrevy Lighthouse' ? wikipediaCopyReason(h.url) : undefined,
      },
    );
    assert.deepEqual(report.queries.map((q) => q.provider), ['wikipedia', 'openalex', 'searxng']);
    assert.deepEqual(report.failures, []);
    assert.ok(report.excluded.some((e) => e.url.includes('wikiwand.com') && /Wikipedia mirror/.test(e.reason)));
    assert.ok(report.excluded.some((e) => e.url.endsWith('/wiki/Grey_seal') && /WP:CIRCULAR/.test(e.reason)));
    const byUrl = new Map(sources.map((s) => [s.document.url, s]));
    assert.equal(byUrl.get('https://en.wikipedia.org/wiki/Godrevy_Lighthouse')!.textFrom, 'wikipedia');
    assert.match(byUrl.get('https://en.wikipedia.org/wiki/Godrevy_Lighthouse')!.document.sentences.join(' '), /built in 1859 by the engineer James Walker/);
    assert.equal(byUrl.get('https://doi.org/10.5555/seal.pups.2022')!.textFrom, 'abstract');
    // The news page could not be read: its snippet stands in, said so.
    assert.equal(byUrl.get('https://news.example/cornwall-seal-pups')!.textFrom, 'snippet');
    assert.deepEqual(pages, ['https://news.example/cornwall-seal-pups']);
    assert.equal(report.fetches, 2);
    assert.ok(sources.every((s) => s.foundBy[0]!.query === 'Grey seal pup production Cornwall rose fifth 2016 2021'));
  });

  it('Wikipedia: an article without plain text (no TextExtracts) is read from its REST HTML', async () => {
    const { sources } = await searchSources('St Ives Bay is sheltered by The Island', { providers: ['wikipedia'], client: client(), budget: { queries: 1, fetches: 3 } });
    const bay = sources.find((s) => s.hit.title === 'St Ives Bay')!;
    assert.equal(bay.textFrom, 'wikipedia');
    assert.deepEqual(bay.document.sentences, ['St Ives Bay is a bay in north Cornwall, between St Ives and Godrevy Point.', 'The bay is sheltered from the prevailing westerly winds by the headland of The Island.', 'Geography', 'The Hayle estuary opens into the bay at its eastern end.']);
    assert.ok(srv.hits.some((h) => h === '/wikipedia/w/rest.php/v1/page/St_Ives_Bay/html'), 'core MediaWiki REST, which non-Wikimedia wikis serve');
  });

  it('a provider that cannot be reached is named, the others still answer', async () => {
    const { sources, report } = await searchSources(CLAIM, { providers: ['wikipedia', 'crossref'], client: new SearchClient({ bases: { ...srv.bases, wikipedia: 'http://127.0.0.1:9' }, intervalMs: 0, policy: { timeoutMs: 2000 } }) });
    assert.equal(report.failures.length, 1);
    assert.match(report.failures[0]!.message, /^Wikipedia search: could not reach 127\.0\.0\.1:9: connection refused/);
    assert.ok(sources.some((s) => s.hit.provider === 'crossref'));
  });

  it('every answer is cached; offline replays the same sources with the server gone, and says what is missing', async () => {
    const other = await startSearchApiServer();
    const cache = new SearchCache(join(dir, 'cache'));
    const opts = (offline: boolean) => ({ providers: ['wikipedia', 'europepmc'] as const, client: new SearchClient({ bases: other.bases, intervalMs: 0, cache, offline }) });
    const first = await searchSources(CLAIM, { ...opts(false), providers: [...opts(false).providers] });
    await other.close();
    const again = await searchSources(CLAIM, { ...opts(true), providers: [...opts(true).providers] });
    assert.deepEqual(again.sources, first.sources);
    assert.deepEqual(again.report, first.report);
    const missing = await searchSources('Nothing like this was ever asked.', { ...opts(true), providers: ['wikipedia'] });
    assert.match(missing.report.failures[0]!.message, /^Wikipedia search: offline: no recorded answer for this request in /);
  });

  it('web results are read as pages through the source resolver (its HTML reader; PDFs too: replay-sources.test.ts); a page that cannot be read stands on its snippet', async () => {
    const pages = await startPageServer({
      '/searxng/search': (_q, r, self) =>
        r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: 'q', number_of_results: 2, results: [{ url: `${self.origin}/news`, title: 'Seal news', content: 'a snippet' }, { url: `${self.origin}/gone`, title: 'Gone', content: CLAIM }] })),
      '/news': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>Seal pups were counted at Godrevy this winter.</p><p>Numbers rose again.</p>', 'Seal news')),
      '/gone': (_q, r) => r.writeHead(404).end(),
    });
    try {
      const policy = { allowHosts: ['127.0.0.1'], timeoutMs: 4000 };
      const resolver = new SourceResolver({ fetch: { policy, cache: new PageCache(join(dir, 'pages')), wayback: false } });
      const { sources } = await searchSources(CLAIM, {
        providers: ['searxng'],
        client: client({ bases: { searxng: `${pages.origin}/searxng` } }),
        budget: { queries: 1 },
        readPage: async (url, title) => {
          const r = await resolver.resolve({ url, title });
          return r.document ? { ok: true, document: r.document } : { ok: false, reason: r.reason ?? r.status };
        },
      });
      assert.deepEqual(sources.map((s) => s.textFrom), ['page', 'snippet']);
      assert.deepEqual(sources[0]!.document.sentences, ['Seal pups were counted at Godrevy this winter.', 'Numbers rose again.']);
      assert.equal(sources[1]!.document.url, `${pages.origin}/gone`);
      assert.ok(sources[1]!.document.sentences.includes(CLAIM));
    } finally {
      await pages.close();
    }
  });

  it('polite: one provider\'s requests are spaced by its interval; --wiki picks the edition', async () => {
    const started = Date.now();
    const c = client({ intervalMs: 150, wiki: 'de', bases: { ...srv.bases, wikipedia: `${srv.origin}/wikipedia` } });
    for (const q of ['a', 'b', 'c']) await PROVIDERS.openalex.search(`polite ${q}`, 1, c);
    assert.ok(Date.now() - started >= 300, 'three requests to one host, at least 150 ms apart');
    const hits = await PROVIDERS.wikipedia.search('Seehund', 1, c);
    assert.equal(hits[0]!.url, 'https://de.wikipedia.org/wiki/Godrevy_Lighthouse');
    assert.equal(new SearchClient({ wiki: 'de' }).base('wikipedia'), 'https://de.wikipedia.org');
  });

  it('citation templates: a paper by its DOI, a page with its site, both with the access date', () => {
    assert.equal(
      citeTemplate({ url: 'https://doi.org/10.5555/x', title: 'Seals | pups', doi: '10.5555/x', journal: 'J Coast', date: '2022', authors: ['Ann Trewin'] }, '2026-11-28'),
      '{{cite journal |author1=Ann Trewin |title=Seals {{!}} pups |journal=J Coast |date=2022 |doi=10.5555/x |access-date=2026-11-28}}',
    );
    assert.equal(citeTemplate({ url: 'https://www.news.example/a', title: 'Pups up' }, '2026-11-28'), '{{cite web |title=Pups up |url=https://www.news.example/a |website=news.example |access-date=2026-11-28}}');
  });

  it('mirrors: Wikipedia, its mirrors, and a page that copies the article', () => {
    assert.match(wikipediaCopyReason('https://de.m.wikipedia.org/wiki/Seehund')!, /Wikipedia itself/);
    assert.match(wikipediaCopyReason('https://www.wikiwand.com/en/Grey_seal')!, /mirror/);
    assert.equal(wikipediaCopyReason('https://news.example/seals'), undefined);
    const ctx = ['Grey seals breed on the coasts of Cornwall in the autumn months.'];
    assert.equal(copiesArticle(`Intro. ${ctx[0]} ${CLAIM} More.`, CLAIM, ctx), true);
    assert.equal(copiesArticle(`A survey found that ${CLAIM}`, CLAIM, ctx), false);
  });
});
