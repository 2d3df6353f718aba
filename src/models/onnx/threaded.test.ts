/**
 * A pulled profile's ONNX model in a worker thread (threaded.ts): the same readings as in the calling
 * thread, and the calling thread's event loop keeps turning while a batch is scored (what lets the server
 * answer /v1/health during a verify). Measured as the event loop's longest gap between turns, not as the
 * wall-clock of a long operation: a busy machine slows the batch, not the loop's turns.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OnnxEntailmentModel } from './entailment.js';
import { loadThreadedEntailment } from './threaded.js';
import { buildTinyBertModel } from './tiny-model.js';
import type { EntailmentModel } from '../types.js';

/** 16 long pairs (the tiny vocabulary spells most words letter by letter: ~300 tokens each). */
const PAIRS = Array.from({ length: 16 }, (_, i) => ({
  premise: `Study ${i}: ` + 'vitamin supplementation lowered fracture incidence among elderly participants in randomised trials '.repeat(4),
  hypothesis: `Vitamin D prevents fractures in group ${i}.`,
}));

/**
 * The longest the event loop went without a turn (ms) while `work` ran: a 5 ms heartbeat's largest gap,
 * counting the stretch up to the end (a loop blocked until `work` ends never ticks at all).
 */
async function loopGapDuring(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let gap = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(beat);
  }
  return Math.max(gap, performance.now() - last);
}

describe('ONNX models in a worker thread', () => {
  let root: string;
  let dir: string;
  let threaded: EntailmentModel;
  let local: OnnxEntailmentModel;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-threaded-'));
    dir = join(root, 'nli');
    // Big enough that one batch is a long synchronous native call on the calling thread.
    await buildTinyBertModel(dir, { task: 'classification', id2label: { 0: 'contradiction', 1: 'entailment', 2: 'neutral' }, hidden: 128, layers: 2, heads: 4, maxPositions: 512, seed: 3 });
    [threaded, local] = await Promise.all([loadThreadedEntailment(dir, { batchSize: 24 }), OnnxEntailmentModel.load(dir, { batchSize: 24 })]);
    await threaded.predict(PAIRS.slice(0, 1));
  });

  after(async () => {
    await threaded.dispose?.();
    await local.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('reads the same probabilities as the model on the calling thread', async () => {
    const [a, b] = [await threaded.predict(PAIRS.slice(0, 4)), await local.predict(PAIRS.slice(0, 4))];
    assert.equal(threaded.info.version, local.info.version);
    a.forEach((p, i) => {
      for (const k of ['entailment', 'neutral', 'contradiction'] as const) assert.ok(Math.abs(p[k] - b[i]![k]) < 1e-6, `${k}: ${p[k]} vs ${b[i]![k]}`);
    });
  });

  it('the event loop keeps turning (no gap of 200 ms) while a batch is scored', async () => {
    // The best of up to three batches: on a machine shared with other jobs the scheduler alone can hold
    // a thread for a while, once; a model on the calling thread holds it for every whole batch.
    let best = Infinity;
    for (let attempt = 0; attempt < 3 && best >= 200; attempt++) {
      let probs: unknown[] = [];
      best = Math.min(best, await loopGapDuring(async () => (probs = await threaded.predict(PAIRS))));
      assert.equal(probs.length, PAIRS.length);
    }
    // For the record (not asserted: timings on a shared machine): the same batch on the calling thread.
    const blocked = await loopGapDuring(() => local.predict(PAIRS));
    console.error(`longest event-loop gap while scoring ${PAIRS.length} pairs: ${best.toFixed(0)} ms in a worker, ${blocked.toFixed(0)} ms on the calling thread`);
    assert.ok(best < 200, `the event loop went ${best.toFixed(0)} ms without a turn`);
  });
});
