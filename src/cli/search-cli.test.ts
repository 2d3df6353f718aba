/**
 * Search from the command line, against loopback servers answering in each provider's documented shape
 * (test/fixtures/search). One file, one process: the models load once.
 *
 * `veracite verify "claim" --search <provider>` with no index: the evidence sentence is found and carries its
 * URL, the output says which provider and query found each source, a provider that cannot be reached is
 * named, and a run recorded in --cache replays with --offline to the same output.
 *
 * `veracite audit --suggest-from search` (and `check`): a citation whose cited page is about something else
 * gets a better source found by search, with a ready {{cite journal |doi=}} template and its access date; a
 * citation its source supports gets none; Wikipedia itself (the article among it), its mirrors and the cited
 * source are never proposed.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import type { AuditReport } from '../audit/types.js';
import { runCli } from './testing/run-cli.js';

const SEALS = 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.';

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The evidence lines of the text output: "   0.831 Title (URL) s2: text". */
const evidence = (out: string) => out.split('\n').filter((l) => /^ {3}\d\.\d{3} /.test(l));
/** The output without the run's duration (its last line). */
const withoutTime = (out: string) => out.replace(/\n {2}\d+ ms$/, '');

describe('veracite verify --search (no index, loopback providers)', () => {
  let srv: SearchApiServer;
  let dir: string;
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-verify-search-'));
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });
  const common = (cache: string) => ['--api-interval', '0', '--cache', join(dir, cache)];

  it('wikipedia: finds the article, reads its text, and shows the evidence sentence with its URL', async () => {
    const out = await runCli(['verify', 'Godrevy Lighthouse was built in 1859 by the engineer James Walker.', '--search', 'wikipedia', '--api-base', srv.apiBase('wikipedia'), ...common('wiki')]);
    const top = evidence(out)[0]!;
    assert.match(top, /Godrevy Lighthouse \(https:\/\/en\.wikipedia\.org\/wiki\/Godrevy_Lighthouse\) s2: .*built.* in .*1859.* by the .*engineer/);
    assert.match(out, /searched: Wikipedia search \(3 queries\); 3 sources read/);
    assert.match(out, /source https:\/\/en\.wikipedia\.org\/wiki\/Godrevy_Lighthouse \(wikipedia\): found by Wikipedia search for "Godrevy Lighthouse built 1859 engineer James Walker" #1/);
    assert.match(out, /provenance: snapshot search:[0-9a-f]{16}/);
    assert.ok(srv.hits.some((h) => h.includes('prop=extracts') && h.includes('titles=Godrevy+Lighthouse')));
  });

  for (const [provider, url] of [
    ['openalex', 'https://doi.org/10.5555/seal.pups.2022'],
    ['europepmc', 'https://doi.org/10.5555/seal.survey.2023'],
    ['crossref', 'https://doi.org/10.5555/seal.trend.2022'],
    ['searxng', 'https://news.example/cornwall-seal-pups'],
  ] as const) {
    it(`${provider}: the evidence sentence with the URL of the work that states it`, async () => {
      // --search-fetches 0: abstracts need no request; web results stand on their snippets (no page is fetched).
      const out = await runCli(['verify', SEALS, '--search', provider, '--api-base', srv.apiBase(provider), '--search-fetches', '0', ...common(provider)]);
      const lines = evidence(out);
      const where = url.replace(/[./]/g, (c) => `\\${c}`);
      assert.ok(lines.some((l) => new RegExp(`\\(${where}\\) s\\d+: .*rose.* by a .*fifth`).test(l)), `${provider}:\n${out}`);
      assert.ok(lines.every((l) => /\(https:\/\//.test(l)), 'every evidence sentence names its page');
    });
  }

  it('a provider that cannot be reached is named; the others still give evidence', async () => {
    const out = await runCli(['verify', SEALS, '--search', 'wikipedia,crossref', '--api-base', `wikipedia=http://127.0.0.1:${await closedPort()},${srv.apiBase('crossref')}`, ...common('down')]);
    assert.match(out, /^ {2}Wikipedia search: could not reach 127\.0\.0\.1:\d+: connection refused/m);
    assert.ok(evidence(out).some((l) => l.includes('(https://doi.org/10.5555/seal.trend.2022)')));
  });

  it('--offline replays a recorded run from --cache to the same output, with every server gone', async () => {
    const other = await startSearchApiServer();
    const args = ['verify', SEALS, '--search', 'wikipedia,openalex', '--api-base', other.apiBase('wikipedia', 'openalex'), ...common('replay')];
    const recorded = await runCli(args);
    await other.close();
    const replayed = await runCli([...args, '--offline']);
    assert.equal(withoutTime(replayed), withoutTime(recorded));
    assert.ok(evidence(replayed).length > 0);
    // Nothing recorded for another claim: each provider says so, no request is made, and with every provider
    // failed the claim could not be checked (exit 69: search-child.test.ts), rather than "not enough info".
    await assert.rejects(runCli(['verify', 'Nothing was recorded for this claim.', '--search', 'openalex', '--offline', ...common('replay')]), /could not check: every search provider failed: OpenAlex search: offline: no recorded answer for this request in /);
  });
});

describe('veracite audit --suggest-from search (loopback providers)', () => {
  let srv: SearchApiServer;
  let dir: string;
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-suggest-search-'));
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('proposes a better source for a wrong-source citation, none for a supported one; never the article, Wikipedia or a mirror', async () => {
    const sources = join(dir, 'sources');
    await mkdir(sources);
    await writeFile(join(sources, 'bread.html'), '<html><head><title>Bread</title></head><body><article><p>Sourdough bread rises slowly overnight in a cool kitchen.</p><p>Rye flour gives a denser loaf than wheat flour.</p></article></body></html>');
    await writeFile(join(sources, 'godrevy.html'), '<html><head><title>Godrevy light</title></head><body><article><p>Godrevy Lighthouse was built in 1859 by the engineer James Walker.</p><p>The tower stands on Godrevy Island.</p></article></body></html>');
    await writeFile(join(sources, 'manifest.jsonl'), ['{"url":"https://bakery.example/bread","path":"bread.html"}', '{"url":"https://lights.example/godrevy","path":"godrevy.html"}', '{"url":"https://doi.org/10.5555/seal.pups.2022","path":"bread.html"}', ''].join('\n'));
    const article = join(dir, 'grey-seal.wikitext');
    await writeFile(
      article,
      [
        "'''Grey seals''' breed on the coasts of Cornwall.",
        '',
        '== Population ==',
        'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.<ref>{{cite web |url=https://bakery.example/bread |title=Bread}}</ref>',
        'Godrevy Lighthouse was built in 1859 by the engineer James Walker.<ref>{{cite web |url=https://lights.example/godrevy |title=Godrevy light}}</ref>',
        // Cites (by DOI) the very paper search finds, but its saved copy is the bread page: flagged, and the paper is not its own better source.
        'Pup production on the north coast of Cornwall rose by a fifth between 2016 and 2021.<ref>{{cite journal |title=Grey seal pups |doi=10.5555/seal.pups.2022}}</ref>',
        '',
      ].join('\n'),
    );
    const json = join(dir, 'report.json');
    const text = await runCli([
      'audit', article, '--title', 'Grey seal', '--no-index', '--sources', sources, '--scorer', 'lexical', '--threshold', '0.3',
      '--suggest-from', 'search', '--search-fetches', '0',
      '--api-base', `${srv.apiBase('wikipedia', 'openalex', 'searxng')},crossref=http://127.0.0.1:9`, '--search', 'wikipedia,openalex,searxng,crossref', '--api-interval', '0', '--cache', join(dir, 'cache'), '--out', json, '--quiet',
    ]);
    assert.match(text, /^ {2}Crossref search: could not reach 127\.0\.0\.1:9: connection refused .*\(citations #1, #2, #3\)$/m);
    assert.match(text, /better sources searched for 3 flagged or needs-review citations; found for [12]$/m);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    const [wrong, right] = report.citations;
    assert.ok(wrong && right);
    assert.equal(wrong.verification?.flagged, true, 'the bread page does not support the seal claim');
    const best = wrong.recommendations!.suggestions[0]!;
    assert.equal(best.url, 'https://doi.org/10.5555/seal.pups.2022');
    assert.equal(best.foundBy!.provider, 'openalex');
    assert.match(best.template!, /^\{\{cite journal \|author1=Ann Trewin \|author2=Peter Hosking \|title=Grey seal pup production in Cornwall, 2016-2021 \|journal=Journal of Coastal Ecology \|date=2022-01-15 \|doi=10\.5555\/seal\.pups\.2022 \|pmid=35000001 \|access-date=\d{4}-\d{2}-\d{2}\}\}$/);
    assert.equal(best.accessDate, best.template!.match(/access-date=([\d-]+)/)![1]);
    assert.ok(best.score > wrong.verification!.score, 'supports the claim better than the cited page');
    // The supported citation: searched (no probability to band on: lexical), nothing better than its own source.
    assert.equal(right.verification?.flagged, false);
    assert.deepEqual(right.recommendations?.suggestions ?? [], []);
    // Never Wikipedia (the article "Grey seal" among it), a mirror, or the cited page.
    for (const c of report.citations) {
      for (const s of c.recommendations?.suggestions ?? []) {
        assert.doesNotMatch(s.url ?? '', /wikipedia\.org|wikiwand\.com|bakery\.example|lights\.example/);
      }
    }
    const byDoi = report.citations[2]!;
    assert.equal(byDoi.verification?.flagged, true);
    assert.ok(byDoi.recommendations!.search!.excluded.some((e) => e.url === 'https://doi.org/10.5555/seal.pups.2022' && /existing source/.test(e.reason)));
    assert.ok(!(byDoi.recommendations!.suggestions ?? []).some((s) => s.url === 'https://doi.org/10.5555/seal.pups.2022'));
    const excluded = wrong.recommendations!.search!.excluded;
    assert.ok(excluded.some((e) => e.url === 'https://en.wikipedia.org/wiki/Grey_seal' && /WP:CIRCULAR/.test(e.reason)), JSON.stringify(excluded));
    assert.ok(excluded.some((e) => e.url.includes('wikiwand.com') && /Wikipedia mirror/.test(e.reason)));
    assert.match(wrong.recommendations!.search!.failures[0]!, /^Crossref search: could not reach/);
  });

  it('check --suggest-from search prints the better source with its URL and a ready citation; a failing provider is named', async () => {
    const out = await runCli([
      'check', 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.', '--source', join(dir, 'sources', 'bread.html'), '--title', 'Grey seal',
      '--no-index', '--scorer', 'lexical', '--threshold', '0.3', '--suggest-from', 'search', '--search', 'openalex,crossref', '--search-fetches', '0',
      '--api-base', `${srv.apiBase('openalex')},crossref=http://127.0.0.1:9`, '--api-interval', '0', '--cache', join(dir, 'cache-check'),
    ]);
    assert.match(out, /^ {2}Crossref search: could not reach 127\.0\.0\.1:9: connection refused/m);
    assert.match(out, /better sources found by search/);
    assert.match(out, /Grey seal pup production in Cornwall, 2016-2021 <https:\/\/doi\.org\/10\.5555\/seal\.pups\.2022>/);
    assert.match(out, /cite: \{\{cite journal .*\|doi=10\.5555\/seal\.pups\.2022 .*\|access-date=\d{4}-\d{2}-\d{2}\}\} \(found by openalex for "/);
  });
});
