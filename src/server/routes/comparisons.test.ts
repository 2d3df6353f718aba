/**
 * The comparisons route with `skip`, through fastify's own request injection (light-my-request, whose
 * version package.json pins for Node 20), on a real job store and annotation store: a test server runs
 * a scripted audit, then a second app carrying only this route answers on the same context.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildOpenApi } from '../openapi.js';
import type { RunningServer } from '../start.js';
import { FakeAuditService } from '../testing/fake-audit.js';
import { fakeModels } from '../testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from '../testing/harness.js';
import { ComparisonNextResponse, comparisonsNextRoute } from './comparisons.js';

let ix: TestIndex;
let server: RunningServer;
let app: FastifyInstance;
let jobId: string;

const article = ['One.', 'Two.', 'Three.', 'Four.'].map((s, i) => `Claim ${s}<ref>{{cite web |url=https://example.org/${i} |title=P${i}}}</ref>`).join(' ');

before(async () => {
  ix = await makeTestIndex('veracite-compare-');
  server = await startTestServer(ix.index, fakeModels(), {}, () => new FakeAuditService(1));
  const job = (await (await postJson(`${server.url}/v1/audits`, { wikitext: article, title: 'Four claims' })).json()) as { id: string };
  jobId = job.id;
  for (let i = 0; i < 100; i++) {
    const j = (await (await fetch(`${server.url}/v1/audits/${jobId}`)).json()) as { status: string };
    if (j.status === 'done') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  app = Fastify();
  app.setErrorHandler((err: Error & { statusCode?: number; issues?: unknown }, _req, reply) => reply.code(err.statusCode ?? 500).send({ message: err.message, issues: err.issues }));
  comparisonsNextRoute.register(app, server.ctx);
  await app.ready();
});

after(async () => {
  await app?.close();
  await server?.close();
  await ix?.cleanup();
});

async function next(skip: string[] = []) {
  const qs = new URLSearchParams([['job', jobId], ...skip.map((s) => ['skip', s] as [string, string])]);
  return app.inject({ method: 'GET', url: `/v1/comparisons/next?${qs}` });
}

describe('GET /v1/comparisons/next with skip', () => {
  it('passes over skipped pairs, whatever side order they were shown in, until none is left', async () => {
    const seen: string[] = [];
    const pairIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await next(pairIds);
      assert.equal(res.statusCode, 200, res.body);
      const pair = ComparisonNextResponse.parse(res.json());
      assert.equal(pair.remaining, 4 - i);
      assert.equal(pair.skipped, i);
      assert.ok(!seen.includes(pair.claim), `pair ${pair.claim} came back`);
      seen.push(pair.claim);
      pairIds.push(pair.pairId);
    }
    // least verifiable first, as without skip (fake scores: index*37 % 10 / 10 -> 0, .7, .4, .1)
    assert.deepEqual(seen, ['Claim One.', 'Claim Four.', 'Claim Three.', 'Claim Two.']);
    assert.equal((await next(pairIds)).statusCode, 204);
    // a new id for the same citation (another random A/B order) is skipped too
    const again = ComparisonNextResponse.parse((await next()).json());
    assert.equal(again.claim, 'Claim One.');
    const res = await next([again.pairId, ...pairIds.slice(1, 3)]);
    assert.equal(ComparisonNextResponse.parse(res.json()).claim, 'Claim Two.');
  });

  it('an annotated pair is gone for good, a skipped one comes back when no longer skipped', async () => {
    const first = ComparisonNextResponse.parse((await next()).json());
    const saved = await postJson(`${server.url}/v1/annotations`, { pairId: first.pairId, choice: 'neither' });
    assert.equal(saved.status, 201);
    const after1 = ComparisonNextResponse.parse((await next()).json());
    assert.notEqual(after1.claim, first.claim);
    assert.equal(after1.remaining, 3);
  });

  it('refuses a skip entry that is not a pair id, naming it', async () => {
    const res = await next(['not-a-pair']);
    assert.equal(res.statusCode, 400);
    assert.match(res.json<{ message: string }>().message, /skip\[0\]: not a pair id/);
  });

  it('documents skip in the OpenAPI document', () => {
    const doc = buildOpenApi([comparisonsNextRoute]) as { paths: Record<string, { get: { parameters: { name: string; in: string }[] } }> };
    assert.deepEqual(doc.paths['/v1/comparisons/next']!.get.parameters.map((p) => `${p.in}:${p.name}`), ['query:job', 'query:skip']);
  });
});
