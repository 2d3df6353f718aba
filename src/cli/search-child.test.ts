/**
 * `veracite verify --search <provider>` (and the other commands that search) as a user runs them: the CLI in
 * its own process, against loopback fakes answering in each API's documented shape in 0 ms (faster than the
 * polite interval: an unref'd timer there ended the process with exit 13 and no output) and in 300 ms (slower
 * than it), and with errors. Each run must end settled (runCliProcess.assertSettled: never exit 13, never a
 * non-zero code with nothing said), and with evidence naming its page. The default polite intervals are
 * kept (no --api-interval 0): waiting for its turn is what the bug was.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import { assertSettled, runCliProcess } from './testing/run-cli-process.js';

const SEALS = 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.';
const GODREVY = 'Godrevy Lighthouse was built in 1859 by the engineer James Walker.';
const evidence = (out: string) => out.split('\n').filter((l) => /^ {3}\d\.\d{3} /.test(l));

const CASES = [
  ['wikipedia', GODREVY, 'https://en.wikipedia.org/wiki/Godrevy_Lighthouse'],
  ['openalex', SEALS, 'https://doi.org/10.5555/seal.pups.2022'],
  ['europepmc', SEALS, 'https://doi.org/10.5555/seal.survey.2023'],
  ['crossref', SEALS, 'https://doi.org/10.5555/seal.trend.2022'],
  ['searxng', SEALS, 'https://news.example/cornwall-seal-pups'],
  // Brave's key from the environment; its polite interval is 1 s (its free plan's rate).
  ['brave', SEALS, 'https://news.example/cornwall-seal-pups'],
] as const;

describe('veracite verify --search, each provider, as its own process (loopback fakes, 0 ms and 300 ms)', { concurrency: 2 }, () => {
  let fast: SearchApiServer;
  let slow: SearchApiServer;
  let dir: string;
  before(async () => {
    fast = await startSearchApiServer();
    slow = await startSearchApiServer();
    slow.delayMs = 300;
    dir = await mkdtemp(join(tmpdir(), 'vc-search-child-'));
  });
  after(async () => {
    await fast.close();
    await slow.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const [provider, claim, url] of CASES) {
    for (const latency of [0, 300] as const) {
      it(`${provider}, answers in ${latency} ms: evidence from ${url}, exit 0`, async () => {
        const srv = latency ? slow : fast;
        const r = await runCliProcess(['verify', claim, '--search', provider, '--api-base', srv.apiBase(provider), '--search-fetches', provider === 'wikipedia' ? '2' : '0', '--cache', join(dir, `${provider}-${latency}`), '--contact-email', 'editor@example.org'], { env: { BRAVE_SEARCH_API_KEY: 'brave-test-key' } });
        assertSettled(r);
        assert.equal(r.code, 0, r.stderr);
        assert.ok(evidence(r.stdout).some((l) => l.includes(`(${url})`)), `${provider}:\n${r.stdout}\n${r.stderr}`);
      });
    }
  }

  it('every provider fails (HTTP 500, a closed port): "could not check", each failure named, exit 69', async () => {
    fast.fail.add('crossref');
    try {
      const r = await runCliProcess(['verify', SEALS, '--search', 'crossref,openalex', '--api-base', `${fast.apiBase('crossref')},openalex=http://127.0.0.1:9`, '--cache', join(dir, 'down')]);
      assertSettled(r);
      assert.equal(r.code, 69, r.stderr);
      assert.match(r.stderr, /could not check: every search provider failed: /);
      assert.match(r.stderr, /Crossref search: 127\.0\.0\.1:\d+ answered HTTP 500/);
      assert.match(r.stderr, /OpenAlex search: could not reach 127\.0\.0\.1:9/);
      assert.doesNotMatch(r.stdout, /NOT ENOUGH INFO/);
    } finally {
      fast.fail.delete('crossref');
    }
  });

  it('the OpenAlex key is sent as api_key, and is in no output, cache key or cache file', async () => {
    const key = 'sk-test-0a1b2c3d4e5f';
    const cache = join(dir, 'keyed');
    const before = fast.hits.length;
    const r = await runCliProcess(['verify', SEALS, '--search', 'openalex', '--api-base', fast.apiBase('openalex'), '--search-fetches', '0', '--cache', cache, '--json'], { env: { OPENALEX_API_KEY: key } });
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    const sent = fast.hits.slice(before).filter((h) => h.startsWith('/openalex/works?'));
    assert.ok(sent.length > 0 && sent.every((h) => new URLSearchParams(h.split('?')[1]).get('api_key') === key), sent.join('\n'));
    assert.ok(!`${r.stdout}${r.stderr}`.includes(key), 'the key in the output');
    const files = await readdir(join(cache, 'search'));
    assert.ok(files.length > 0);
    for (const f of files) assert.ok(!(await readFile(join(cache, 'search', f), 'utf8')).includes(key), `the key in ${f}`);
  });

  it('the User-Agent carries a contact: VERACITE_CONTACT_EMAIL (as --contact-email does), else the project page', async () => {
    const own = await startSearchApiServer();
    try {
      const run = async (env: NodeJS.ProcessEnv, tag: string) => {
        const at = own.headers.length;
        const r = await runCliProcess(['verify', GODREVY, '--search', 'wikipedia', '--api-base', own.apiBase('wikipedia'), '--search-fetches', '1', '--cache', join(dir, `ua-${tag}`)], { env: { VERACITE_CONTACT_EMAIL: '', ...env } });
        assertSettled(r);
        assert.equal(r.code, 0, r.stderr);
        const agents = own.headers.slice(at).map((h) => String(h['user-agent']));
        assert.ok(agents.length >= 2, 'a search and an article');
        return agents;
      };
      const withEnv = await run({ VERACITE_CONTACT_EMAIL: 'bot-owner@example.net' }, 'env');
      assert.ok(withEnv.every((ua) => /^veracite-citation-audit\/\S+ \(mailto:bot-owner@example\.net; /.test(ua)), withEnv.join('\n'));
      const none = await run({}, 'none');
      assert.ok(none.every((ua) => /\(\+https:\/\/\S+; checks Wikipedia citations\)/.test(ua)), none.join('\n'));
    } finally {
      await own.close();
    }
  });

  it('--offline replays a recorded run from --cache with no request, to the same output', async () => {
    const own = await startSearchApiServer();
    try {
      const args = ['verify', SEALS, '--search', 'wikipedia,openalex', '--api-base', own.apiBase('wikipedia', 'openalex'), '--search-fetches', '2', '--cache', join(dir, 'replay')];
      const recorded = await runCliProcess(args);
      assertSettled(recorded);
      assert.equal(recorded.code, 0, recorded.stderr);
      const asked = own.hits.length;
      assert.ok(asked > 0);
      const replayed = await runCliProcess([...args, '--offline']);
      assertSettled(replayed);
      assert.equal(replayed.code, 0, replayed.stderr);
      assert.equal(own.hits.length, asked, 'no request when offline');
      const withoutTime = (out: string) => out.replace(/\n {2}\d+ ms\n?$/, '');
      assert.equal(withoutTime(replayed.stdout), withoutTime(recorded.stdout));
    } finally {
      await own.close();
    }
  });

  it('verify --claims (a batch run) sends MediaWiki maxlag=5 and writes every verdict', async () => {
    const own = await startSearchApiServer();
    try {
      const claims = join(dir, 'claims.jsonl');
      await writeFile(claims, `${JSON.stringify({ id: 'g1', claim: GODREVY })}\n`);
      const out = join(dir, 'batch.jsonl');
      const r = await runCliProcess(['verify', '--claims', claims, '--out', out, '--search', 'wikipedia', '--api-base', own.apiBase('wikipedia'), '--search-fetches', '1', '--cache', join(dir, 'batch'), '--quiet']);
      assertSettled(r);
      assert.equal(r.code, 0, r.stderr);
      const api = own.hits.filter((h) => h.startsWith('/wikipedia/w/api.php'));
      assert.ok(api.length >= 2 && api.every((h) => h.includes('maxlag=5')), api.join('\n'));
      assert.equal((await readFile(out, 'utf8')).trim().split('\n').length, 1);
    } finally {
      await own.close();
    }
  });

  it('check --suggest-from search and audit --fetch --suggest-from search, as their own processes: settled, with the better source; audit sends MediaWiki maxlag=5', async () => {
    const own = await startSearchApiServer();
    try {
      const sources = join(dir, 'pages');
      await mkdir(sources, { recursive: true });
      await writeFile(join(sources, 'bread.html'), '<html><head><title>Bread</title></head><body><article><p>Sourdough bread rises slowly overnight in a cool kitchen.</p><p>Rye flour gives a denser loaf.</p></article></body></html>');
      await writeFile(join(sources, 'manifest.jsonl'), '{"url":"https://bakery.example/bread","path":"bread.html"}\n');
      const check = await runCliProcess(['check', SEALS, '--source', join(sources, 'bread.html'), '--title', 'Grey seal', '--no-index', '--scorer', 'lexical', '--threshold', '0.3', '--suggest-from', 'search', '--search', 'openalex', '--search-fetches', '0', '--api-base', own.apiBase('openalex'), '--cache', join(dir, 'check')]);
      assertSettled(check);
      assert.match(check.stdout, /Grey seal pup production in Cornwall, 2016-2021 <https:\/\/doi\.org\/10\.5555\/seal\.pups\.2022>/, check.stdout + check.stderr);
      // A DOI citation read with --fetch goes to Crossref's works API (the metadata reader, at its polite interval).
      const article = join(dir, 'seal.wikitext');
      await writeFile(article, `Grey seals breed in Cornwall.\n\n${SEALS}<ref>{{cite web |url=https://bakery.example/bread |title=Bread}}</ref>\nPups are counted in October.<ref>{{cite journal |title=Counts |doi=10.5555/seal.count.2020}}</ref>\n`);
      const report = join(dir, 'audit.json');
      const audit = await runCliProcess(['audit', article, '--title', 'Grey seal', '--no-index', '--sources', sources, '--fetch', '--scorer', 'lexical', '--threshold', '0.3', '--suggest-from', 'search', '--search', 'openalex', '--search-fetches', '0', '--api-base', `${own.apiBase('openalex')},crossref=${own.bases.crossref}`, '--cache', join(dir, 'audit'), '--out', report, '--quiet']);
      assertSettled(audit);
      assert.ok(own.hits.some((h) => h.startsWith('/crossref/works/10.5555')), 'the DOI was looked up');
      const r = JSON.parse(await readFile(report, 'utf8')) as { citations: { recommendations?: { suggestions?: { url?: string }[] } }[] };
      assert.equal(r.citations[0]!.recommendations!.suggestions![0]!.url, 'https://doi.org/10.5555/seal.pups.2022');
      assert.ok(own.hits.every((h) => !h.startsWith('/wikipedia/')), 'only the providers asked for');
      // An audit is a batch run too: the Wikipedia searches for a better source carry maxlag=5 (check's do not).
      const wiki = await runCliProcess(['audit', article, '--title', 'Grey seal', '--no-index', '--sources', sources, '--scorer', 'lexical', '--threshold', '0.3', '--suggest-from', 'search', '--search', 'wikipedia', '--search-fetches', '0', '--api-base', own.apiBase('wikipedia'), '--cache', join(dir, 'audit-wiki'), '--out', join(dir, 'audit-wiki.json'), '--quiet']);
      assertSettled(wiki);
      const api = own.hits.filter((h) => h.startsWith('/wikipedia/w/api.php'));
      assert.ok(api.length >= 1 && api.every((h) => h.includes('maxlag=5')), `audit's MediaWiki requests: ${api.join('\n')}`);
    } finally {
      await own.close();
    }
  });
});
