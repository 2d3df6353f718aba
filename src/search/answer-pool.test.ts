/**
 * Search answers read in the answer worker (answer-pool.ts), as the composition root reads them: the same
 * hits as on the calling thread for every provider's documented answer; a maxlag answer still waited out
 * (its retry-after crosses the worker boundary); an answer over the reading budget is that provider's named
 * failure and is not cached; the worker is closed with its owner.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import { MAX_ABSTRACT_WORDS } from './answer-check.js';
import { inThreadAnswerReader, workerAnswerReader, type AnswerReader } from './answer-pool.js';
import { PROVIDERS } from './providers/index.js';
import { wikipediaText } from './providers/wikipedia.js';
import { SearchCache } from './search-cache.js';
import { SearchClient } from './search-client.js';
import { SEARCH_PROVIDERS } from './types.js';

const errors = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/search/errors');

describe('search answers read in the answer worker', () => {
  let srv: SearchApiServer;
  let dir: string;
  let worker: AnswerReader;
  before(async () => {
    srv = await startSearchApiServer();
    dir = await mkdtemp(join(tmpdir(), 'vc-answer-pool-'));
    worker = workerAnswerReader();
  });
  after(async () => {
    await worker.close();
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });
  const client = (answers: AnswerReader, extra: ConstructorParameters<typeof SearchClient>[0] = {}) => new SearchClient({ bases: srv.bases, intervalMs: 0, answers, ...extra });

  it('every provider: the same hits from the worker as on this thread, and Wikipedia article text too', async () => {
    process.env.BRAVE_SEARCH_API_KEY ??= 'brave-test-key';
    for (const p of SEARCH_PROVIDERS) {
      const here = await PROVIDERS[p].search('grey seal pups cornwall', 5, client(inThreadAnswerReader()));
      const there = await PROVIDERS[p].search('grey seal pups cornwall', 5, client(worker));
      assert.ok(here.length > 0, `${p}: the fixture gives hits`);
      assert.deepEqual(there, here, p);
    }
    const a = await wikipediaText('Godrevy Lighthouse', client(inThreadAnswerReader()));
    const b = await wikipediaText('Godrevy Lighthouse', client(worker));
    assert.ok(a.ok && a.text.length > 100);
    assert.deepEqual(b, a);
  });

  it("a maxlag answer read in the worker is still waited out and asked again (its retry-after crosses the boundary)", async () => {
    srv.queue.wikipedia = [{ body: await readFile(join(errors, 'wikipedia-maxlag.json'), 'utf8'), headers: { 'retry-after': '0', 'x-database-lag': '6' } }];
    const waits: string[] = [];
    const hits = await PROVIDERS.wikipedia.search('maxlag seals', 3, client(worker, { batch: true, onWait: (_p, w) => void waits.push(w.why) }));
    assert.ok(hits.length > 0);
    assert.equal(waits.length, 1);
    assert.match(waits[0]!, /maxlag/);
  });

  it('an answer over the reading budget is the provider\'s named failure, never cached; the next answer reads', async () => {
    // An OpenAlex page of 10 works whose abstracts are at the word cap (~3.6 MB): a real answer's shape, ~440 ms of reading.
    const works = Array.from({ length: 10 }, (_, w) => ({
      id: `https://openalex.org/W${w}`,
      doi: `https://doi.org/10.5555/big.${w}`,
      title: `Big work ${w}`,
      abstract_inverted_index: Object.fromEntries(Array.from({ length: MAX_ABSTRACT_WORDS }, (_, i) => [`w${w}x${i}`, [i]])),
    }));
    const tight = workerAnswerReader({ timeMs: 5, heapMb: 512 });
    const cacheDir = join(dir, 'budget');
    try {
      srv.queue.openalex = [{ body: JSON.stringify({ results: works }) }];
      await assert.rejects(PROVIDERS.openalex.search('big works', 10, client(tight, { cache: new SearchCache(cacheDir) })), /reading the search answer took longer than .* \(the limit per search answer\)$/);
      assert.deepEqual(await readdir(join(cacheDir, 'search')).catch(() => []), [], 'nothing cached');
      // The same answer within the default budget reads, every abstract rebuilt in the worker.
      srv.queue.openalex = [{ body: JSON.stringify({ results: works }) }];
      const hits = await PROVIDERS.openalex.search('big works', 10, client(worker));
      assert.equal(hits.length, 10);
      assert.equal(hits[0]!.text!.split(' ').length, MAX_ABSTRACT_WORDS);
    } finally {
      await tight.close();
    }
  });
});
