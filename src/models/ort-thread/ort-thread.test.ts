/**
 * The onnxruntime session in a worker thread: the thread that asks for embeddings stays free while the
 * graph runs (onnxruntime-node computes on the calling thread, which in the server is the event loop), the
 * vectors are the in-thread ones, and a broken model is refused with onnxruntime's reason.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import * as ort from 'onnxruntime-node';
import { createUseFastEmbedder } from '../use/use-fast.js';
import { buildUseOnnx } from '../use/onnx-graph.js';
import { loadUseWeights } from '../use/weights.js';
import type { Embedder } from '../types.js';
import { OrtThreadSession } from './ort-thread.js';

/** 16 passages of ~100 words: one batch of the embedder, one onnxruntime run. */
const PASSAGES = Array.from({ length: 16 }, (_, i) =>
  `Passage ${i}: ` + 'vitamin D deficiency increases the risk of fractures in older adults while supplementation lowers it in several randomised trials '.repeat(6),
);

let embedder: Embedder;
before(async () => {
  embedder = await createUseFastEmbedder();
  await embedder.embed(['warm up']);
});
after(async () => embedder.dispose?.());

describe('onnxruntime in a worker thread', () => {
  it('the asking thread keeps turning its event loop while one batch is embedded', async () => {
    let ticks = 0;
    let running = true;
    const spin = () => {
      ticks++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const vectors = await embedder.embed(PASSAGES);
    running = false;
    assert.equal(vectors.length, 16);
    // Run on this thread, the batch would be one synchronous native call: one or two turns at most.
    assert.ok(ticks > 50, `only ${ticks} event-loop turns while a batch of 16 passages was embedded`);
  });

  it('gives the vectors an in-thread session gives', async () => {
    const [v] = await embedder.embed([PASSAGES[0]!]);
    const weights = loadUseWeights();
    const session = await ort.InferenceSession.create(buildUseOnnx(weights), { graphOptimizationLevel: 'all', executionMode: 'sequential' });
    const thread = await OrtThreadSession.create({ model: buildUseOnnx(weights), options: { graphOptimizationLevel: 'all', executionMode: 'sequential' } });
    try {
      const feeds = () => ({ ids: new Int32Array([5, 17, 40, 9]), lengths: new Int32Array([4]), poolw: new Float32Array([0.25, 0.25, 0.25, 0.25]) });
      const a = feeds();
      const inThread = await session.run({ ids: new ort.Tensor('int32', a.ids, [1, 4]), lengths: new ort.Tensor('int32', a.lengths, [1]), poolw: new ort.Tensor('float32', a.poolw, [1, 1, 4]) });
      const b = feeds();
      const offThread = await thread.run({ ids: { type: 'int32', data: b.ids, dims: [1, 4] }, lengths: { type: 'int32', data: b.lengths, dims: [1] }, poolw: { type: 'float32', data: b.poolw, dims: [1, 1, 4] } });
      assert.deepEqual([...(offThread.embedding!.data as Float32Array)], [...(inThread.embedding!.data as Float32Array)]);
      assert.equal(v!.length, 512);
    } finally {
      await session.release();
      await thread.release();
    }
  });

  it('refuses a model that is not one, with onnxruntime\'s reason, and leaves no thread running', async () => {
    await assert.rejects(OrtThreadSession.create({ model: new Uint8Array([1, 2, 3, 4]), options: {} }), /onnxruntime could not create the session/);
  });

  it('a process that made an embedder, used or not, exits without disposing it (the thread holds it only while a run is pending)', () => {
    const url = new URL('../use/use-fast.ts', import.meta.url).href;
    for (const body of ['', "await e.embed(['hello world']);"]) {
      const code = `const { createUseFastEmbedder } = await import(${JSON.stringify(url)}); const e = await createUseFastEmbedder(); ${body} console.log('made');`;
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.signal, null, `still running after 60 s (${body || 'unused'}): the worker kept the process alive`);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /made/);
    }
  });

  it('a released session says so instead of hanging', async () => {
    const thread = await OrtThreadSession.create({ model: buildUseOnnx(loadUseWeights()), options: {} });
    await thread.release();
    await assert.rejects(thread.run({ ids: { type: 'int32', data: new Int32Array([1]), dims: [1, 1] } }), /released/);
  });
});
