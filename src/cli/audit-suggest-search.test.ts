/**
 * `veracite audit --suggest-from search` against loopback search providers (test/fixtures/search): a
 * citation whose cited page is about something else gets a better source found by search, with a ready
 * {{cite journal |doi=}} template and its access date; a citation its source supports gets none; Wikipedia
 * itself (the article among it), its mirrors and the cited source are never proposed.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../audit/types.js';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import { runCli } from './testing/run-cli.js';

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
    await writeFile(join(sources, 'manifest.jsonl'), ['{"url":"https://bakery.example/bread","path":"bread.html"}', '{"url":"https://lights.example/godrevy","path":"godrevy.html"}', ''].join('\n'));
    const article = join(dir, 'grey-seal.wikitext');
    await writeFile(
      article,
      [
        "'''Grey seals''' breed on the coasts of Cornwall.",
        '',
        '== Population ==',
        'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.<ref>{{cite web |url=https://bakery.example/bread |title=Bread}}</ref>',
        'Godrevy Lighthouse was built in 1859 by the engineer James Walker.<ref>{{cite web |url=https://lights.example/godrevy |title=Godrevy light}}</ref>',
        '',
      ].join('\n'),
    );
    const json = join(dir, 'report.json');
    await runCli([
      'audit', article, '--title', 'Grey seal', '--no-index', '--sources', sources, '--scorer', 'lexical', '--threshold', '0.3',
      '--suggest-from', 'search', '--search', 'wikipedia,openalex,searxng', '--search-fetches', '0',
      '--api-base', srv.apiBase('wikipedia', 'openalex', 'searxng'), '--api-interval', '0', '--cache', join(dir, 'cache'), '--out', json, '--quiet',
    ]);
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
    const excluded = wrong.recommendations!.search!.excluded;
    assert.ok(excluded.some((e) => e.url === 'https://en.wikipedia.org/wiki/Grey_seal' && /WP:CIRCULAR/.test(e.reason)), JSON.stringify(excluded));
    assert.ok(excluded.some((e) => e.url.includes('wikiwand.com') && /Wikipedia mirror/.test(e.reason)));
    assert.deepEqual(wrong.recommendations!.search!.failures, []);
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
