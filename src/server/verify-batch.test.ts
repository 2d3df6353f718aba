/**
 * POST /v1/verify/batch over loopback: verdicts in order and equal to the single route's, the single
 * route's validation per claim, one slot at a time, and partial answers at the deadline or a full queue.
 * Claims containing "HOLD" are held by the entailment model until the test opens the gate (or the
 * request's deadline aborts them).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntailmentPair, EntailmentProbs } from '../models/types.js';
import { ErrorResponse, MAX_BATCH_CLAIMS, VerdictResponse, VerifyBatchResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { FakeEntailment, fakeModels, waitGate } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';
import { supportedClaims } from './testing/sample-index.js';

class HoldingEntailment extends FakeEntailment {
  hold: { promise: Promise<void>; release: () => void } = gate();
  /** Calls that reached the hold. */
  held = 0;
  override async predict(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> {
    if (pairs.some((p) => p.hypothesis.includes('HOLD'))) {
      this.held++;
      await waitGate(this.hold.promise, signal);
    }
    return super.predict(pairs, signal);
  }
}

function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

let ix: TestIndex;
before(async () => {
  ix = await makeTestIndex('veracite-batch-');
});
after(async () => ix.cleanup());

async function start(opts: { concurrency?: number; queue?: number; requestTimeoutMs?: number } = {}): Promise<{ server: RunningServer; nli: HoldingEntailment }> {
  const nli = new HoldingEntailment();
  const server = await startTestServer(ix.index, { ...fakeModels(), entailment: nli }, opts);
  return { server, nli };
}

const claims = supportedClaims()
  .slice(0, 3)
  .map((c) => c.claim);

describe('POST /v1/verify/batch', () => {
  it('answers every claim in order with the verdict the single route gives, and is in the OpenAPI document', async () => {
    const { server } = await start();
    try {
      const res = await postJson(`${server.url}/v1/verify/batch`, { claims });
      assert.equal(res.status, 200, await res.clone().text());
      const r = VerifyBatchResponse.parse(await res.json());
      assert.deepEqual([r.verified, r.complete], [3, true]);
      assert.deepEqual(r.results.map((e) => [e.index, e.claim]), claims.map((c, i) => [i, c]));
      for (const e of r.results) {
        const single = VerdictResponse.parse(await (await postJson(`${server.url}/v1/verify`, { claim: e.claim })).json());
        assert.equal(e.verdict?.label, single.label);
        assert.deepEqual(e.verdict?.evidence.map((x) => x.text), single.evidence.map((x) => x.text));
      }
      const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { paths: Record<string, { post?: { requestBody: unknown } }>; components: { schemas: Record<string, { properties: { claims: { maxItems: number; items: { maxLength: number } } } }> } };
      assert.ok(doc.paths['/v1/verify/batch']?.post?.requestBody);
      const req = doc.components.schemas.VerifyBatchRequest!.properties.claims;
      assert.deepEqual([req.maxItems, req.items.maxLength], [MAX_BATCH_CLAIMS, 2000]);
    } finally {
      await server.close();
    }
  });

  it('validates as the single route does, naming the claim', async () => {
    const { server } = await start();
    try {
      const issue = async (body: unknown) => {
        const res = await postJson(`${server.url}/v1/verify/batch`, body);
        assert.equal(res.status, 400);
        return ErrorResponse.parse(await res.json()).issues?.[0]?.path;
      };
      assert.equal(await issue({ claims: [] }), 'claims');
      assert.equal(await issue({ claims: Array.from({ length: MAX_BATCH_CLAIMS + 1 }, () => 'x') }), 'claims');
      assert.equal(await issue({ claims: ['a', 'b', '  '] }), 'claims.2');
      assert.equal(await issue({ claims: ['a', 'x'.repeat(2001)] }), 'claims.1');
      assert.equal(await issue({ claims: ['a', 7] }), 'claims.1');
      assert.equal(await issue({ claim: 'a' }), 'claims');
    } finally {
      await server.close();
    }
  });

  it('holds one slot at a time: a single request still runs beside a held batch', async () => {
    const { server, nli } = await start({ concurrency: 2, requestTimeoutMs: 20_000 });
    try {
      const batch = postJson(`${server.url}/v1/verify/batch`, { claims: claims.map((c) => `HOLD ${c}`) });
      while (nli.held === 0) await sleep(5);
      assert.deepEqual([server.ctx.limiter.stats().active, server.ctx.limiter.stats().queued], [1, 0]);
      assert.equal((await postJson(`${server.url}/v1/verify`, { claim: claims[0] })).status, 200);
      nli.hold.release();
      const r = VerifyBatchResponse.parse(await (await batch).json());
      assert.deepEqual([r.verified, r.complete], [3, true]);
    } finally {
      await server.close();
    }
  });

  it('at the deadline: the verdicts made, the rest as timeout errors; none made: 504', async () => {
    const { server } = await start({ concurrency: 1, requestTimeoutMs: 300 });
    try {
      const res = await postJson(`${server.url}/v1/verify/batch`, { claims: [claims[0], `HOLD ${claims[1]}`, claims[2]] });
      assert.equal(res.status, 200);
      const r = VerifyBatchResponse.parse(await res.json());
      assert.deepEqual([r.verified, r.complete], [1, false]);
      assert.ok(r.results[0]!.verdict);
      assert.deepEqual(r.results.slice(1).map((e) => e.error?.error), ['timeout', 'timeout']);
      // the held claim was cancelled with the request: the only slot is free again
      for (let i = 0; i < 200 && server.ctx.limiter.stats().active > 0; i++) await sleep(10);
      assert.equal(server.ctx.limiter.stats().active, 0);

      const none = await postJson(`${server.url}/v1/verify/batch`, { claims: [`HOLD ${claims[0]}`, claims[1]] });
      assert.equal(none.status, 504);
      assert.equal(ErrorResponse.parse(await none.json()).error, 'timeout');
    } finally {
      await server.close();
    }
  });

  it('a full queue before the first claim: 503 with Retry-After, as the single route', async () => {
    const { server, nli } = await start({ concurrency: 1, queue: 1, requestTimeoutMs: 20_000 });
    try {
      const held = postJson(`${server.url}/v1/verify`, { claim: `HOLD ${claims[0]}` });
      while (server.ctx.limiter.stats().active < 1) await sleep(5);
      const queued = postJson(`${server.url}/v1/verify`, { claim: claims[1] });
      while (server.ctx.limiter.stats().queued < 1) await sleep(5);
      const res = await postJson(`${server.url}/v1/verify/batch`, { claims });
      assert.equal(res.status, 503);
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
      nli.hold.release();
      assert.deepEqual([(await held).status, (await queued).status], [200, 200]);
    } finally {
      await server.close();
    }
  });
});
