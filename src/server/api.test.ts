/**
 * HTTP API over loopback: validation, verify, citation check, search, health, OpenAPI document, body
 * limit. A real index (the SciFact sample), fake models (instant, deterministic), the real audit module
 * with its lexical scorer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CitationViewSchema } from '../audit/citation-view.js';
import { ErrorResponse, HealthResponse, SearchResponse, VerdictResponse, VerifyBatchResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';
import { sampleUrl, supportedClaims } from './testing/sample-index.js';
import { parseDuration, parseSize } from './options.js';

let ix: TestIndex;
let server: RunningServer;
let url: string;

before(async () => {
  ix = await makeTestIndex();
  server = await startTestServer(ix.index, fakeModels(), { bodyLimit: 64 * 1024 });
  url = server.url;
});

after(async () => {
  await server.close();
  await ix.cleanup();
});

async function errorOf(res: Response, status: number) {
  assert.equal(res.status, status, await res.clone().text());
  return ErrorResponse.parse(await res.json());
}

describe('validation', () => {
  it('an empty claim is a 400 naming the field', async () => {
    const e = await errorOf(await postJson(`${url}/v1/verify`, { claim: '   ' }), 400);
    assert.equal(e.error, 'invalid_request');
    assert.equal(e.issues?.[0]?.path, 'claim');
  });

  it('a missing claim, a wrong type and an unknown field each name their field', async () => {
    assert.equal((await errorOf(await postJson(`${url}/v1/verify`, {}), 400)).issues?.[0]?.path, 'claim');
    assert.equal((await errorOf(await postJson(`${url}/v1/verify`, { claim: 42 }), 400)).issues?.[0]?.path, 'claim');
    const e = await errorOf(await postJson(`${url}/v1/verify`, { claim: 'x', extra: true }), 400);
    assert.match(JSON.stringify(e.issues), /extra/);
  });

  it('a nested field: citation check with a bad source says source.url / source.text', async () => {
    const e = await errorOf(await postJson(`${url}/v1/citations/check`, { claim: 'c', source: { url: 'not a url' } }), 400);
    assert.ok(e.issues?.some((i) => i.path === 'source.url'), JSON.stringify(e.issues));
    const e2 = await errorOf(await postJson(`${url}/v1/citations/check`, { claim: 'c', source: {} }), 400);
    const paths = e2.issues?.map((i) => i.path) ?? [];
    assert.ok(paths.includes('source.url') && paths.includes('source.text'), JSON.stringify(paths));
  });

  it('an audit needs exactly one input, and url only with --fetch', async () => {
    const none = await errorOf(await postJson(`${url}/v1/audits`, { title: 'x' }), 400);
    assert.equal(none.issues?.[0]?.path, 'wikitext');
    const two = await errorOf(await postJson(`${url}/v1/audits`, { wikitext: 'a', html: '<p>b</p>' }), 400);
    assert.equal(two.issues?.[0]?.path, 'html');
    const fetchOff = await errorOf(await postJson(`${url}/v1/audits`, { url: 'https://en.wikipedia.org/wiki/Bodmin' }), 400);
    assert.equal(fetchOff.issues?.[0]?.path, 'url');
  });

  it('query and path parameters: k out of range, bad mode, bad job id', async () => {
    assert.equal((await errorOf(await fetch(`${url}/v1/search?q=x&k=1000`), 400)).issues?.[0]?.path, 'k');
    assert.equal((await errorOf(await fetch(`${url}/v1/search?q=x&mode=magic`), 400)).issues?.[0]?.path, 'mode');
    assert.equal((await errorOf(await fetch(`${url}/v1/search`), 400)).issues?.[0]?.path, 'q');
    assert.equal((await errorOf(await fetch(`${url}/v1/audits/not-a-uuid`), 400)).issues?.[0]?.path, 'id');
    await errorOf(await fetch(`${url}/v1/audits/00000000-0000-4000-8000-000000000000`), 404);
  });

  it('malformed JSON is a 400, not a 500', async () => {
    const e = await errorOf(await postJson(`${url}/v1/verify`, '{"claim": '), 400);
    assert.equal(e.error, 'invalid_json');
  });

  it('unknown routes are JSON 404s', async () => {
    assert.equal((await errorOf(await fetch(`${url}/v1/nope`), 404)).error, 'not_found');
  });
});

describe('verify, check, search, health', () => {
  const gold = supportedClaims()[4]!; // ALDH1 ... breast cancer, gold abstract in the sample

  it('verifies a claim on the sample index with evidence and provenance', async () => {
    const res = await postJson(`${url}/v1/verify`, { claim: gold.claim });
    assert.equal(res.status, 200);
    const v = VerdictResponse.parse(await res.json());
    assert.equal(v.claim, gold.claim);
    assert.ok(v.evidence.length > 0);
    assert.ok(v.documents.some((d) => d.docId === String(gold.docId)), 'the gold abstract is a candidate');
    assert.match(v.provenance.snapshot, /@p\d+\.d\d+$/);
    // The harness's settings: the lexical scorer (no weights) and the fake entailment model.
    assert.deepEqual(v.provenance.models.map((m) => m.id), ['lexical-overlap', 'fake-nli']);
  });

  it('checks a citation whose URL is in the index, and one given as text', async () => {
    const byUrl = CitationViewSchema.parse(await (await postJson(`${url}/v1/citations/check`, { claim: gold.claim, source: { url: sampleUrl(gold.docId) } })).json());
    assert.equal(byUrl.sourceStatus, 'found');
    assert.equal(byUrl.existing?.docId, String(gold.docId));
    assert.ok(byUrl.verifiability! > 0 && byUrl.existing!.sentences.some((s) => s.evidence));
    const byText = CitationViewSchema.parse(
      await (await postJson(`${url}/v1/citations/check`, { claim: 'The moon is made of cheese.', context: 'Folk tales.', source: { text: 'Bread is baked. The sky is blue.' }, suggestions: 0 })).json(),
    );
    assert.equal(byText.sourceStatus, 'found');
    assert.equal(byText.suggestions.length, 0);
    const missing = CitationViewSchema.parse(await (await postJson(`${url}/v1/citations/check`, { claim: gold.claim, source: { url: 'https://not-indexed.example/x' } })).json());
    assert.equal(missing.sourceStatus, 'not-found');
    assert.equal(missing.verifiability, null);
  });

  it('verify decides each evidence document as check decides the same pair: the same band and number (issue 36)', async () => {
    const v = VerdictResponse.parse(await (await postJson(`${url}/v1/verify`, { claim: gold.claim })).json());
    assert.ok(v.documentDecisions?.length, 'an index verdict carries its documents\' decisions');
    for (const d of v.documentDecisions!) {
      const c = CitationViewSchema.parse(await (await postJson(`${url}/v1/citations/check`, { claim: gold.claim, source: { url: sampleUrl(d.docId) }, suggestions: 0 })).json());
      assert.equal(c.existing?.docId, d.docId);
      assert.equal(d.decision.band, c.decision?.band, `${d.docId}: verify's band is check's`);
      assert.equal(d.decision.probability?.toFixed(6), c.decision?.probability?.toFixed(6), `${d.docId}: the same number`);
    }
    const batch = VerifyBatchResponse.parse(await (await postJson(`${url}/v1/verify/batch`, { claims: [gold.claim] })).json());
    assert.deepEqual(batch.results[0]!.verdict!.documentDecisions?.map((d) => [d.docId, d.decision.band]), v.documentDecisions!.map((d) => [d.docId, d.decision.band]));
  });

  it('searches with k and mode', async () => {
    const res = await fetch(`${url}/v1/search?q=${encodeURIComponent('ALDH1 breast cancer prognosis')}&k=3&mode=bm25`);
    const r = SearchResponse.parse(await res.json());
    assert.equal(r.documents.length, 3);
    assert.equal(r.documents[0]!.docId, String(gold.docId));
    assert.equal(r.mode, 'bm25');
  });

  it('health reports the index snapshot, models and uptime', async () => {
    const res = await fetch(`${url}/v1/health`);
    // Every API answer: no content sniffing, never kept by a shared cache.
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const hl = HealthResponse.parse(await res.json());
    assert.equal(hl.status, 'ok');
    assert.equal(hl.index.documents, 1000);
    assert.match(hl.index.snapshot, /@p\d+\.d\d+$/);
    assert.ok(hl.models.length >= 2);
    assert.ok(hl.uptimeSeconds >= 0);
    assert.match(hl.audit, /^side/);
  });
});

describe('OpenAPI document', () => {
  it('is JSON with every path, and every $ref resolves', async () => {
    const res = await fetch(`${url}/v1/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    assert.equal(doc.openapi, '3.1.0');
    for (const p of ['/v1/verify', '/v1/citations/check', '/v1/audits', '/v1/audits/{id}', '/v1/audits/{id}/events', '/v1/search', '/v1/health', '/v1/openapi.json', '/v1/annotations', '/v1/annotations.jsonl', '/v1/comparisons/next']) {
      assert.ok(doc.paths[p], `missing ${p}`);
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(refs.length > 5);
    for (const r of refs) assert.ok(doc.components.schemas[r], `unresolved $ref ${r}`);
    // the validation schema is the documented one: the claim's limits are in the document
    const verify = doc.components.schemas.VerifyRequest as { properties: { claim: { minLength: number; maxLength: number } }; required: string[] };
    assert.deepEqual([verify.properties.claim.minLength, verify.properties.claim.maxLength, verify.required], [1, 2000, ['claim']]);
    const search = doc.paths['/v1/search']!.get as { parameters: { name: string }[] };
    assert.deepEqual(search.parameters.map((p) => p.name).sort(), ['k', 'mode', 'q']);
  });
});

describe('limits', () => {
  it('a body over --body-limit is a 413 with a JSON error', async () => {
    const e = await errorOf(await postJson(`${url}/v1/audits`, { wikitext: 'x'.repeat(70 * 1024) }), 413);
    assert.equal(e.error, 'payload_too_large');
  });

  it('sizes and durations parse', () => {
    assert.equal(parseSize('2mb'), 2 * 1024 * 1024);
    assert.equal(parseSize('512kb'), 512 * 1024);
    assert.equal(parseSize('1000'), 1000);
    assert.throws(() => parseSize('2 parsecs'));
    assert.equal(parseDuration('30s'), 30_000);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('2m'), 120_000);
  });
});

describe('web page', () => {
  it('serves the page and its modules from this origin with a strict CSP', async () => {
    const res = await fetch(`${url}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await res.text();
    assert.doesNotMatch(html, /https?:\/\/(?!en\.wikipedia)/, 'no external resources');
    for (const m of html.matchAll(/(?:src|href)="\/([\w.-]+\.(?:js|css))"/g)) assert.equal((await fetch(`${url}/${m[1]}`)).status, 200, m[1]);
    assert.equal((await fetch(`${url}/app.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal((await fetch(`${url}/..%2Fpackage.json`)).status, 404);
  });
});

describe('citation check with the default engine and source ranker', () => {
  it("reports the cited source and its suggestions as probabilities of support, from the ranker's calibrated scale (the one the flags use)", async () => {
    const trained = await startTestServer(ix.index, fakeModels(), { settings: { models: { scorer: 'trained' } } });
    try {
      const gold = supportedClaims()[4]!;
      const r = CitationViewSchema.parse(await (await postJson(`${trained.url}/v1/citations/check`, { claim: gold.claim, source: { url: sampleUrl(gold.docId) } })).json());
      assert.equal(r.sourceStatus, 'found');
      assert.equal(r.scoreSignal, 'probability');
      assert.ok(r.verifiability! > 0 && r.verifiability! < 1, `${r.verifiability}`);
      for (const s of r.suggestions) assert.ok(s.score > r.verifiability!, `${s.title}: ${s.score} <= ${r.verifiability}`);
      const off = CitationViewSchema.parse(await (await postJson(`${url}/v1/citations/check`, { claim: gold.claim, source: { url: sampleUrl(gold.docId) } })).json());
      // The lexical scorer has no ranker: it flags on its own score, whose calibration carries a probability fit too.
      assert.equal(off.scoreSignal, 'probability');
      assert.notEqual(off.verifiability, r.verifiability, 'another signal, another calibration');
    } finally {
      await trained.close();
    }
  });
});
