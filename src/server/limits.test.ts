/**
 * Load limits over loopback: a full queue answers 503 with Retry-After at once, a request past its
 * deadline answers 504 and its work is cancelled (its slot freed) then, and a timed-out request that was
 * still queued gives up its place.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Limiter } from './limiter.js';
import type { RunningServer } from './start.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';

let ix: TestIndex;
before(async () => {
  ix = await makeTestIndex();
});
after(async () => ix.cleanup());

/** Resolves when `release()` is called. */
function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

describe('concurrency limit', () => {
  let server: RunningServer;
  const models = fakeModels();
  before(async () => {
    server = await startTestServer(ix.index, models, { concurrency: 1, queue: 1, requestTimeoutMs: 20_000 });
  });
  after(async () => server.close());

  it('runs 1, queues 1, refuses the next with 503 + Retry-After, then serves again', async () => {
    const g = gate();
    models.entailment.gate = g.promise;
    const claim = { claim: 'ALDH1 expression is associated with poorer prognosis in breast cancer.' };
    const first = postJson(`${server.url}/v1/verify`, claim);
    while (server.ctx.limiter.stats().active < 1) await sleep(5);
    const second = postJson(`${server.url}/v1/verify`, claim);
    while (server.ctx.limiter.stats().queued < 1) await sleep(5);

    const third = await postJson(`${server.url}/v1/verify`, claim);
    assert.equal(third.status, 503);
    assert.ok(Number(third.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
    assert.equal(((await third.json()) as { error: string }).error, 'overloaded');
    // search shares the limit
    assert.equal((await fetch(`${server.url}/v1/search?q=cancer`)).status, 503);

    models.entailment.gate = undefined;
    g.release();
    assert.equal((await first).status, 200);
    assert.equal((await second).status, 200);
    assert.equal((await postJson(`${server.url}/v1/verify`, claim)).status, 200);
    assert.deepEqual([server.ctx.limiter.stats().active, server.ctx.limiter.stats().queued], [0, 0]);
  });
});

describe('client gone', () => {
  let server: RunningServer;
  const models = fakeModels();
  before(async () => {
    server = await startTestServer(ix.index, models, { concurrency: 1, queue: 1, requestTimeoutMs: 20_000 });
  });
  after(async () => server.close());

  it('a client that disconnects cancels its running work and frees its slot, without a server error logged', async () => {
    const g = gate();
    models.entailment.gate = g.promise;
    const logged: string[] = [];
    const log = console.error;
    console.error = (...a: unknown[]) => void logged.push(a.join(' '));
    try {
      const ac = new AbortController();
      const pending = fetch(`${server.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"claim":"ALDH1 and breast cancer."}', signal: ac.signal }).catch(() => 'aborted');
      while (models.entailment.calls === 0) await sleep(5);
      assert.equal(server.ctx.limiter.stats().active, 1);
      ac.abort();
      assert.equal(await pending, 'aborted');
      // The gate stays closed: the work was cancelled when the client left.
      for (let i = 0; i < 200 && server.ctx.limiter.stats().active > 0; i++) await sleep(10);
      assert.equal(server.ctx.limiter.stats().active, 0);
      assert.equal(models.entailment.finished, 0);
      assert.deepEqual(logged, [], 'no server error logged for a client that left');
    } finally {
      console.error = log;
      models.entailment.gate = undefined;
      g.release();
    }
  });
});

describe('request deadline', () => {
  let server: RunningServer;
  const models = fakeModels();
  before(async () => {
    server = await startTestServer(ix.index, models, { concurrency: 1, queue: 4, requestTimeoutMs: 300 });
  });
  after(async () => server.close());

  it('answers 504 at the deadline and frees the slot then, not when the held work would have ended', async () => {
    const g = gate();
    models.entailment.gate = g.promise;
    const claim = { claim: 'ALDH1 expression is associated with poorer prognosis in breast cancer.' };
    const [a, b] = await Promise.all([postJson(`${server.url}/v1/verify`, claim), postJson(`${server.url}/v1/verify`, claim)]);
    assert.deepEqual([a.status, b.status], [504, 504]);
    assert.equal(((await a.json()) as { error: string }).error, 'timeout');
    // The gate is still closed: the running verification was cancelled at its deadline (its model call
    // gave up). The queued one may have got the slot in the same moment, before its own deadline fired; it
    // stops at its next stage. Soon neither holds the only slot (before the fix, the first held it for as
    // long as the gate stayed closed: for ever here).
    for (let i = 0; i < 200 && server.ctx.limiter.stats().active > 0; i++) await sleep(10);
    assert.deepEqual([server.ctx.limiter.stats().active, server.ctx.limiter.stats().queued], [0, 0]);
    assert.equal(models.entailment.finished, 0, 'no held call completed');
    // So the next request is served at once, while the first call's gate is never opened.
    models.entailment.gate = undefined;
    assert.equal((await postJson(`${server.url}/v1/verify`, claim)).status, 200);
    g.release();
  });

  it('the verifier stops between stages: an aborted signal rejects with its reason before any model runs', async () => {
    const ac = new AbortController();
    ac.abort(new Error('deadline'));
    const calls = models.entailment.calls;
    await assert.rejects(server.ctx.verifier.verify('ALDH1 and breast cancer', ac.signal), /deadline/);
    await assert.rejects(server.ctx.retriever.search('ALDH1', { k: 3, signal: ac.signal }), /deadline/);
    assert.equal(models.entailment.calls, calls);
  });
});

describe('Limiter', () => {
  it('never runs more than its concurrency and keeps FIFO order', async () => {
    const l = new Limiter(2, 10);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        l.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await sleep(5);
          order.push(i);
          running--;
        }),
      ),
    );
    assert.equal(peak, 2);
    assert.deepEqual(order.slice(0, 2).sort(), [0, 1]);
    assert.deepEqual([l.stats().active, l.stats().queued], [0, 0]);
  });
});
