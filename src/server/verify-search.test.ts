/**
 * POST /v1/verify with `search`: the providers (loopback, documented shapes) are searched beside the index;
 * the evidence sentences carry their URLs, the answer says which provider and query found each source, and a
 * provider that cannot be reached is named. Fake models (instant), the real search and verification.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSearchApiServer, type SearchApiServer } from '../../test/fixtures/search/serve-search-apis.js';
import type { RunningServer } from './start.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';
import { supportedClaims } from './testing/sample-index.js';

describe('POST /v1/verify with search', () => {
  let ix: TestIndex;
  let apis: SearchApiServer;
  let server: RunningServer;
  let cache: string;
  before(async () => {
    ix = await makeTestIndex();
    apis = await startSearchApiServer();
    cache = await mkdtemp(join(tmpdir(), 'vc-serve-search-'));
    server = await startTestServer(ix.index, fakeModels(), {
      settings: {
        sources: { apis: { crossref: apis.bases.crossref, openalex: apis.bases.openalex, wikipedia: 'http://127.0.0.1:9' }, apiIntervalMs: 0, cache, timeoutMs: 2000 },
        // The gadget's audits (and citation checks) take their better sources from search.
        search: { suggestFrom: 'search', providers: ['openalex'] },
        audit: { threshold: 0.3 },
      },
    });
  });
  after(async () => {
    await server.close();
    await apis.close();
    await ix.cleanup();
    await rm(cache, { recursive: true, force: true });
  });

  it('answers with evidence that carries its URL, which provider found it, and the provider that failed', async () => {
    const res = await postJson(`${server.url}/v1/verify`, { claim: 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.', search: ['crossref', 'wikipedia'] });
    assert.equal(res.status, 200);
    const v = (await res.json()) as { evidence: { url?: string; text: string }[]; search: { sources: { url: string; foundBy: { provider: string }[] }[]; failures: { message: string }[] }; provenance: { snapshot: string } };
    const top = v.evidence.find((e) => e.url === 'https://doi.org/10.5555/seal.trend.2022');
    assert.ok(top, JSON.stringify(v.evidence));
    assert.deepEqual(v.search.sources.map((s) => [s.url, s.foundBy[0]!.provider]), [['https://doi.org/10.5555/seal.trend.2022', 'crossref']]);
    assert.match(v.search.failures[0]!.message, /^Wikipedia search: could not reach 127\.0\.0\.1:9: connection refused/);
    assert.match(v.provenance.snapshot, /^search:/);
  });

  it('searches the index alongside: its documents join those found by search', async () => {
    const { claim, docId } = supportedClaims()[0]!;
    const res = await postJson(`${server.url}/v1/verify`, { claim, search: ['crossref'] });
    assert.equal(res.status, 200);
    const v = (await res.json()) as { documents: { docId: string }[]; search: { sources: { url: string }[] } };
    assert.ok(v.documents.some((d) => d.docId === String(docId)), JSON.stringify(v.documents));
    assert.deepEqual(v.search.sources.map((s) => s.url), ['https://doi.org/10.5555/seal.trend.2022']);
  });

  it('a failed citation gets a better source found by search, with its text, as the gadget receives it', async () => {
    const res = await postJson(`${server.url}/v1/citations/check`, {
      claim: 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.',
      title: 'Grey seal',
      source: { text: 'Sourdough bread rises slowly overnight in a cool kitchen. Rye flour gives a denser loaf.', title: 'Bread' },
    });
    assert.equal(res.status, 200);
    const view = (await res.json()) as { failedVerification: boolean; suggestions: { url?: string; title: string; sentences: { text: string; evidence: boolean }[]; template?: string; accessDate?: string; foundBy?: { provider: string; label: string; query: string } }[] };
    assert.equal(view.failedVerification, true);
    const best = view.suggestions[0]!;
    assert.equal(best.url, 'https://doi.org/10.5555/seal.pups.2022');
    assert.ok(best.sentences.some((s) => s.evidence && /rose by a fifth/.test(s.text)), JSON.stringify(best));
    // The ready citation the gadget and the web page offer with a copy button, as `audit --suggest-from search` prints it.
    assert.match(best.template ?? '', /^\{\{cite journal \|author1=Ann Trewin \|author2=Peter Hosking \|title=Grey seal pup production in Cornwall, 2016-2021 \|journal=Journal of Coastal Ecology \|date=2022-01-15 \|doi=10\.5555\/seal\.pups\.2022 \|pmid=35000001 \|access-date=\d{4}-\d{2}-\d{2}\}\}$/);
    assert.equal(best.accessDate, best.template!.match(/access-date=([\d-]+)/)![1]);
    assert.equal(best.foundBy?.provider, 'openalex');
    assert.equal(best.foundBy?.label, 'OpenAlex search');
    assert.match(best.foundBy?.query ?? '', /seal/i);
  });

  it('refuses a provider it does not know, naming the field', async () => {
    const res = await postJson(`${server.url}/v1/verify`, { claim: 'Seals breed in Cornwall.', search: ['altavista'] });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /search/);
  });
});
