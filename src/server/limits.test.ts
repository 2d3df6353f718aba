/**
 * Load limits over loopback: a full queue answers 503 with Retry-After at once, a request past its
 * deadline answers 504, and a timed-out request that was still queued gives up its place.
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

describe('request deadline', () => {
  let server: RunningServer;
  const models = fakeModels();
  before(async () => {
    server = await startTestServer(ix.index, models, { concurrency: 1, queue: 4, requestTimeoutMs: 300 });
  });
  after(async () => server.close());

  it('answers 504 past the deadline; a queued request that timed out leaves the queue', async () => {
    const g = gate();
    models.entailment.gate = g.promise;
    const claim = { claim: 'ALDH1 expression is associated with poorer prognosis in breast cancer.' };
    const [a, b] = await Promise.all([postJson(`${server.url}/v1/verify`, claim), postJson(`${server.url}/v1/verify`, claim)]);
    assert.deepEqual([a.status, b.status], [504, 504]);
    assert.equal(((await a.json()) as { error: string }).error, 'timeout');
    // The running one still holds its slot (its work cannot be cancelled); the queued one has left.
    assert.deepEqual([server.ctx.limiter.stats().active, server.ctx.limiter.stats().queued], [1, 0]);
    models.entailment.gate = undefined;
    g.release();
    while (server.ctx.limiter.stats().active > 0) await sleep(5);
    assert.equal((await postJson(`${server.url}/v1/verify`, claim)).status, 200);
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
