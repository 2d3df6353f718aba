/**
 * `veracite verify "claim" --search <provider>` with no index, against loopback servers answering in each
 * provider's documented shape (test/fixtures/search): the evidence sentence is found and carries its URL, the
 * output says which provider and query found each source, a provider that cannot be reached is named, and a
 * run recorded in --cache replays with --offline to the same output. One process: the models load once.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
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
    // Nothing recorded for another claim: each provider says so, and no request is made.
    const missing = await runCli(['verify', 'Nothing was recorded for this claim.', '--search', 'openalex', '--offline', ...common('replay')]);
    assert.match(missing, /OpenAlex search: offline: no recorded answer for this request in /);
  });
});
