/**
 * Each service's rules, against the loopback fake serving the documented answers (test/fixtures/search and
 * its errors/ folder): serial requests per host, 429 / Retry-After and MediaWiki maxlag waited out (and
 * bounded), error answers never cached, the OpenAlex key, the User-Agent's contact, SearXNG's limiter headers
 * and disabled JSON, Brave's limits, Europe PMC's query; and hostile answers, each one provider's named
 * failure: wrong types, nulls, huge inverted-index positions, runs of `<`, HTML where JSON was expected,
 * redirects from a mirror to another origin. Waits are Retry-After: 0 or a few ms: no test sleeps seconds.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import { markupText, plainText, stripTags } from '../sources/markup-text.js';
import { searchSources } from './collect.js';
import { europePmcQuery } from './providers/europepmc.js';
import { PROVIDERS } from './providers/index.js';
import { invertedAbstract } from './providers/openalex.js';
import { wikipediaText } from './providers/wikipedia.js';
import { SearchCache } from './search-cache.js';
import { SearchClient, type SearchClientOptions } from './search-client.js';

const errors = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/search/errors');
const fixture = (name: string) => readFile(join(errors, name), 'utf8');

describe('search providers: each service\'s rules (loopback, documented answers)', () => {
  let srv: SearchApiServer;
  let dir: string;
  const waits: string[] = [];
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-search-rules-'));
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });
  const client = (extra: SearchClientOptions = {}) => new SearchClient({ bases: srv.bases, intervalMs: 0, onWait: (p, w) => void waits.push(`${p}: ${w.why} ${w.waitMs}`), ...extra });
  const cacheFiles = async (c: string) => readdir(join(c, 'search')).catch(() => [] as string[]);

  it('requests to one host are serial: the next starts after the previous finished plus the interval', async () => {
    srv.delayMs = 40;
    const from = srv.spans.length;
    srv.maxInFlight = 0;
    try {
      const c = client({ intervalMs: 15 });
      // Four providers at once, all on this one host (the fake), as collect.ts runs them side by side.
      await Promise.all((['openalex', 'crossref', 'europepmc', 'wikipedia'] as const).map((p) => PROVIDERS[p].search('serial seals', 2, c)));
      const spans = srv.spans.slice(from);
      assert.equal(spans.length, 4);
      assert.equal(srv.maxInFlight, 1, 'never two requests in flight to one host');
      for (let i = 1; i < spans.length; i++) assert.ok(spans[i]!.start >= spans[i - 1]!.end + 10, `request ${i} started ${(spans[i]!.start - spans[i - 1]!.end).toFixed(1)} ms after the previous ended`);
    } finally {
      srv.delayMs = 0;
    }
  });

  it('MediaWiki maxlag (an HTTP 200 error with Retry-After) is waited out and retried, with progress, and never cached', async () => {
    const cache = join(dir, 'maxlag');
    srv.queue.wikipedia = [{ body: await fixture('wikipedia-maxlag.json'), headers: { 'retry-after': '0', 'x-database-lag': '6' } }];
    const c = client({ cache: new SearchCache(cache), batch: true });
    const before = srv.hits.length;
    waits.length = 0;
    const hits = await PROVIDERS.wikipedia.search('maxlag seals', 3, c);
    assert.equal(hits[0]!.title, 'Godrevy Lighthouse');
    const sent = srv.hits.slice(before);
    assert.equal(sent.length, 2, 'the lagged answer, then the retry');
    assert.ok(sent.every((h) => h.includes('maxlag=5')), 'batch runs send maxlag=5');
    assert.deepEqual(waits, ['wikipedia: the wiki answered an error: maxlag (Waiting for 10.64.48.35: 6.2 seconds lagged.) 0']);
    // Only the success was stored: one entry, and it is the search answer.
    const files = await cacheFiles(cache);
    assert.equal(files.length, 1);
    const entry = JSON.parse(await readFile(join(cache, 'search', files[0]!), 'utf8')) as { request: string; body: string };
    assert.doesNotMatch(entry.body, /"code":"maxlag"/);
    assert.doesNotMatch(entry.request, /maxlag=/, 'maxlag does not change the answer: not in the key');
  });

  it('a wiki lagging past the budget fails naming the provider and what to do; nothing is cached', async () => {
    const cache = join(dir, 'maxlag-long');
    const lag = await fixture('wikipedia-maxlag.json');
    srv.queue.wikipedia = [{ body: lag, headers: { 'retry-after': '0' } }, { body: lag, headers: { 'retry-after': '0' } }, { body: lag, headers: { 'retry-after': '3600' } }];
    const { report } = await searchSources('Godrevy Lighthouse was built in 1859.', { providers: ['wikipedia'], client: client({ cache: new SearchCache(cache) }), budget: { queries: 1 } });
    assert.match(report.failures[0]!.message, /^Wikipedia search: the wiki answered an error: maxlag .*it asked to wait 3600 s, more than the 60 s a request may wait: try again later$/);
    assert.deepEqual(await cacheFiles(cache), []);
    // An error that is not "later" (badvalue) fails at once, named.
    srv.queue.wikipedia = [{ body: await fixture('wikipedia-badvalue.json') }];
    await assert.rejects(PROVIDERS.wikipedia.search('x', 1, client()), /the wiki answered an error: badvalue \(Unrecognized value for parameter "list": serach\.\)/);
  });

  it('HTTP 429 with Retry-After is waited out (progress told); one asking more than the budget fails at once, saying so', async () => {
    const cache = join(dir, '429');
    srv.queue.crossref = [{ status: 429, headers: { 'retry-after': '0' }, body: '{"status":"error"}' }, { status: 503, headers: { 'retry-after': '0' }, body: 'busy' }];
    waits.length = 0;
    const before = srv.hits.length;
    const hits = await PROVIDERS.crossref.search('retry seals', 2, client({ cache: new SearchCache(cache) }));
    assert.equal(hits[0]!.doi, '10.5555/seal.trend.2022');
    assert.equal(srv.hits.length - before, 3);
    assert.deepEqual(waits, ['crossref: HTTP 429 0', 'crossref: HTTP 503 0']);
    assert.equal((await cacheFiles(cache)).length, 1, 'the success only');
    srv.queue.crossref = [{ status: 429, headers: { 'retry-after': '240' }, body: '{}' }];
    const at = srv.hits.length;
    await assert.rejects(PROVIDERS.crossref.search('storm', 2, client()), /127\.0\.0\.1:\d+ answered HTTP 429 \(it asked to wait 240 s, more than the 60 s a request may wait\)/);
    assert.equal(srv.hits.length - at, 1, 'no retry it could not wait for');
  });

  it('OpenAlex: OPENALEX_API_KEY is sent as api_key and kept out of the cache; 429/403 without a key say one is needed and where', async () => {
    const cache = join(dir, 'openalex-key');
    process.env.OPENALEX_API_KEY = 'sk-rules-123456';
    try {
      const before = srv.hits.length;
      await PROVIDERS.openalex.search('keyed seals', 2, client({ cache: new SearchCache(cache) }));
      assert.match(srv.hits[before]!, /[?&]api_key=sk-rules-123456(&|$)/);
      for (const f of await cacheFiles(cache)) assert.ok(!(await readFile(join(cache, 'search', f), 'utf8')).includes('sk-rules-123456'));
      srv.queue.openalex = [{ status: 429, headers: { 'retry-after': '9999' }, body: await fixture('openalex-rate-limit.json') }];
      const keyed = await PROVIDERS.openalex.search('spent', 2, client()).then(() => '', (e: Error) => e.message);
      assert.match(keyed, /daily allowance is spent for this API key/);
      assert.ok(!keyed.includes('sk-rules-123456'));
    } finally {
      delete process.env.OPENALEX_API_KEY;
    }
    srv.queue.openalex = [{ status: 403, body: await fixture('openalex-rate-limit.json') }];
    await assert.rejects(PROVIDERS.openalex.search('no key', 2, client()), /answered HTTP 403: OpenAlex needs an API key since 13 February 2026 .*https:\/\/openalex\.org\/settings\/api and set OPENALEX_API_KEY/);
    srv.queue.openalex = [{ status: 400, body: await fixture('openalex-invalid-filter.json') }];
    await assert.rejects(PROVIDERS.openalex.search('bad', 2, client()), /answered HTTP 400/);
  });

  it('the User-Agent names the contact e-mail, else the project page', async () => {
    const at = srv.headers.length;
    await PROVIDERS.crossref.search('ua', 1, client({ email: 'editor@example.org' }));
    await PROVIDERS.crossref.search('ua', 1, client());
    const [withMail, without] = srv.headers.slice(at).map((h) => String(h['user-agent']));
    assert.match(withMail!, /^veracite-citation-audit\/0\.1 \(mailto:editor@example\.org; checks Wikipedia citations\)/);
    assert.match(without!, /^veracite-citation-audit\/0\.1 \(\+https:\/\/\S+; checks Wikipedia citations\)/);
  });

  it('SearXNG: headers its limiter lets through; every engine unresponsive is a failure, not "nothing found", and not cached; a disabled JSON format says how to enable it', async () => {
    const cache = join(dir, 'searxng');
    const at = srv.headers.length;
    await PROVIDERS.searxng.search('seals', 2, client());
    const h = srv.headers[at]!;
    assert.match(String(h.accept), /text\/html/);
    assert.ok(h['accept-language']);
    srv.queue.searxng = [{ body: await fixture('searxng-unresponsive.json') }];
    await assert.rejects(PROVIDERS.searxng.search('down', 2, client({ cache: new SearchCache(cache) })), /every engine failed on the instance: google \(Suspended: too many requests\), duckduckgo \(CAPTCHA\), brave \(timeout\); try again later/);
    assert.deepEqual(await cacheFiles(cache), []);
    srv.queue.searxng = [{ status: 403, headers: { 'content-type': 'text/html' }, body: '<html><body>Forbidden</body></html>' }];
    await assert.rejects(PROVIDERS.searxng.search('json off', 2, client()), /answered HTTP 403: the instance refuses JSON answers: add json to search\.formats in its settings\.yml/);
  });

  it('Brave: count at most 20 and extra_snippets asked for; a refused key is named', async () => {
    process.env.BRAVE_SEARCH_API_KEY = 'brave-test';
    try {
      const at = srv.hits.length;
      await PROVIDERS.brave.search('seals', 50, client());
      const q = new URLSearchParams(srv.hits[at]!.split('?')[1]);
      assert.equal(q.get('count'), '20');
      assert.equal(q.get('extra_snippets'), 'true');
      srv.queue.brave = [{ status: 422, body: await fixture('brave-invalid-token.json') }];
      await assert.rejects(PROVIDERS.brave.search('seals', 5, client()), /answered HTTP 422: the key in BRAVE_SEARCH_API_KEY was refused/);
    } finally {
      delete process.env.BRAVE_SEARCH_API_KEY;
    }
  });

  it('Europe PMC: the query is the claim\'s key terms, each quoted (no syntax from the sentence); an empty answer is "no results", from the service', async () => {
    assert.equal(europePmcQuery('Grey seal pup production (Cornwall): rose by a fifth AND NOT "2016"'), '"Grey" "seal" "pup" "production" "Cornwall" "rose"');
    const at = srv.hits.length;
    await PROVIDERS.europepmc.search('Seals: pups (Cornwall) OR NOT', 2, client());
    assert.equal(new URLSearchParams(srv.hits[at]!.split('?')[1]).get('query'), '"Seals" "pups" "Cornwall"');
    srv.queue.europepmc = [{ body: await fixture('europepmc-empty.json') }];
    assert.deepEqual(await PROVIDERS.europepmc.search('nonexistentterm', 2, client()), []);
    srv.queue.crossref = [{ status: 400, body: await fixture('crossref-validation-failure.json') }];
    await assert.rejects(PROVIDERS.crossref.search('x', 2, client()), /answered HTTP 400/);
  });
});

describe('hostile search answers: one provider\'s named failure, never the process\'s', () => {
  let srv: SearchApiServer;
  let dir: string;
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-search-hostile-'));
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });
  const client = (extra: SearchClientOptions = {}) => new SearchClient({ bases: srv.bases, intervalMs: 0, ...extra });

  it('OpenAlex: an abstract_inverted_index position of 4294967294 is refused by name (no 4-billion-slot array)', async () => {
    srv.queue.openalex = [{ body: '{"results":[{"id":"https://openalex.org/W1","title":"Seals","abstract_inverted_index":{"born":[4294967294]}}]}' }];
    await assert.rejects(PROVIDERS.openalex.search('hostile', 2, client()), /malformed answer: results\.0\.abstract_inverted_index\.born\.0: a word position past the 20000 words an abstract may have/);
    srv.queue.openalex = [{ body: JSON.stringify({ results: [{ title: 'Seals', abstract_inverted_index: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`w${i}`, Array.from({ length: 100 }, (_, k) => k)])) }] }) }];
    await assert.rejects(PROVIDERS.openalex.search('hostile', 2, client()), /malformed answer: results\.0\.abstract_inverted_index: more than 20000 words in one abstract/);
    assert.equal(invertedAbstract({ born: [4294967294], Seals: [0] }), 'Seals', 'the builder bounds positions itself too');
  });

  it('wrong types and nulls: named, the other providers still answer', async () => {
    srv.queue.crossref = [{ body: '{"status":"ok","message":{"items":[{"DOI":42,"title":null}]}}' }];
    srv.queue.europepmc = [{ body: '{"resultList":null}' }];
    srv.queue.searxng = [{ body: '{"results":"none"}' }];
    const { sources, report } = await searchSources('Grey seal pup production in Cornwall rose by a fifth.', { providers: ['crossref', 'europepmc', 'searxng', 'openalex'], client: client(), budget: { queries: 4 } });
    const byProvider = Object.fromEntries(report.failures.map((f) => [f.provider, f.message]));
    assert.match(byProvider.crossref!, /^Crossref search: malformed answer: message\.items\.0\.DOI: /);
    assert.match(byProvider.europepmc!, /^Europe PMC search: malformed answer: resultList: /);
    assert.match(byProvider.searxng!, /^SearXNG search: malformed answer: results: /);
    assert.ok(sources.some((s) => s.hit.provider === 'openalex'));
  });

  it('Wikipedia: "extract": 42 is the article\'s failure, named; a missing page is "no article" only when the wiki says missing', async () => {
    srv.queue.wikipedia = [{ body: '{"batchcomplete":true,"query":{"pages":[{"title":"Grey seal","extract":42}]}}' }];
    const r = await wikipediaText('Grey seal', client());
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /^malformed answer: query\.pages\.0\.extract: /);
    const gone = await wikipediaText('No such article', client());
    assert.deepEqual(gone, { ok: false, reason: 'no article "No such article"' });
  });

  it('an HTML page where JSON was expected (HTTP 200) is a failure, never cached', async () => {
    const cache = join(dir, 'html');
    srv.queue.openalex = [{ headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><html><body>Please verify you are a human</body></html>' }];
    await assert.rejects(PROVIDERS.openalex.search('captcha', 2, client({ cache: new SearchCache(cache) })), /answered an HTML page where JSON was expected/);
    assert.deepEqual(await readdir(join(cache, 'search')).catch(() => []), []);
  });

  it('a 150 KB run of "<" in a snippet or an abstract is read as text, in linear time', async () => {
    const run = '<'.repeat(150_000);
    assert.equal(stripTags(run), run);
    assert.equal(plainText(`a ${run} b`).length, run.length + 4);
    assert.equal(markupText(`<jats:p>x</jats:p>${'<p'.repeat(50_000)}`).length, 100_003);
    assert.equal(stripTags('a<b>c</b><>d<e'), 'ac<>d<e');
    assert.equal(markupText('<jats:p>A &amp; B</jats:p><jats:p>C &lt;i&gt;</jats:p>'), 'A & B\n\nC <i>');
    srv.queue.wikipedia = [{ body: JSON.stringify({ batchcomplete: true, query: { search: [{ ns: 0, title: 'Grey seal', snippet: `<span class="searchmatch">seal</span>${run}` }] } }) }];
    const hits = await PROVIDERS.wikipedia.search('lt', 1, client());
    assert.equal(hits[0]!.text!.length, 150_004);
  });

  it('a redirect from an --api-base mirror to another port of the same host is not trusted (origin, not host name)', async () => {
    const other = createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as AddressInfo).port;
    const mirror = createServer((_q, r) => r.writeHead(302, { location: `http://127.0.0.1:${port}/works` }).end());
    await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
    try {
      const c = new SearchClient({ bases: { openalex: `http://127.0.0.1:${(mirror.address() as AddressInfo).port}` }, intervalMs: 0 });
      await assert.rejects(PROVIDERS.openalex.search('redirect', 2, c), /refused http:\/\/127\.0\.0\.1:\d+\/works.*: 127\.0\.0\.1 is/);
    } finally {
      other.close();
      mirror.close();
    }
  });
});

describe('"not found" only when the service says so (the metadata readers)', () => {
  it('Europe PMC: an empty result list is not found; an answer without one is unreadable. arXiv: a malformed id and an error page are not "not found"', async () => {
    const { europePmcWork, arxivWork } = await import('../sources/work-records.js');
    const answers: Record<string, string> = {
      '/epmc/search?empty': '{"version":"6.9","hitCount":0,"resultList":{"result":[]}}',
      '/epmc/search?broken': '{"version":"6.9"}',
      '/arxiv/query?bad': '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id><title>Error</title><summary>incorrect id format for 1234</summary></entry></feed>',
      '/arxiv/query?html': '<!DOCTYPE html><html><body>Service unavailable</body></html>',
    };
    let next = '';
    const server = createServer((_q, r) => r.writeHead(200, { 'content-type': next.includes('arxiv') ? 'application/atom+xml' : 'application/json' }).end(answers[next] ?? ''));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const opts = { bases: { europepmc: `${origin}/epmc`, arxiv: `${origin}/arxiv` }, intervalMs: 0 };
    try {
      next = '/epmc/search?empty';
      const empty = await europePmcWork('pmid', '1', opts, 'https://pubmed.ncbi.nlm.nih.gov/1/');
      assert.equal(empty.ok, false);
      assert.equal(!empty.ok && empty.notFound, true);
      next = '/epmc/search?broken';
      const broken = await europePmcWork('pmid', '2', opts, 'https://pubmed.ncbi.nlm.nih.gov/2/');
      assert.ok(!broken.ok && !broken.notFound && /unreadable answer \(no result list in the answer\)/.test(broken.reason), JSON.stringify(broken));
      next = '/arxiv/query?bad';
      const bad = await arxivWork('1234', opts, 'https://arxiv.org/abs/1234');
      assert.ok(!bad.ok && !bad.notFound && /arXiv refused the id 1234: incorrect id format for 1234/.test(bad.reason), JSON.stringify(bad));
      next = '/arxiv/query?html';
      const html = await arxivWork('2101.00001', opts, 'https://arxiv.org/abs/2101.00001');
      assert.ok(!html.ok && !html.notFound, JSON.stringify(html));
    } finally {
      server.close();
    }
  });
});

describe('a landing page that says "later" is not cached', () => {
  it('429 then 200: the next read asks again and finds the page', async () => {
    const { startPageServer, html } = await import('../../test/fixtures/audit/page-server.js');
    const { SourceResolver } = await import('../sources/resolve-source.js');
    const { PageCache } = await import('../sources/page-cache.js');
    let calls = 0;
    const pages = await startPageServer({ '/paper': (_q, r) => (++calls === 1 ? r.writeHead(429, { 'retry-after': '3600' }).end() : r.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>Seal pups were counted at Godrevy.</p><p>Numbers rose.</p>', 'Seals'))) });
    const dir = await mkdtemp(join(tmpdir(), 'vc-landing-'));
    try {
      const resolver = () => new SourceResolver({ fetch: { policy: { allowHosts: ['127.0.0.1'], timeoutMs: 4000 }, cache: new PageCache(dir), wayback: false } });
      const first = await resolver().resolve({ url: `${pages.origin}/paper`, title: 'Seals' });
      assert.notEqual(first.status, 'found');
      const second = await resolver().resolve({ url: `${pages.origin}/paper`, title: 'Seals' });
      assert.equal(second.status, 'found', JSON.stringify(second));
      assert.equal(calls, 2);
    } finally {
      await pages.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
