import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OnnxEmbedder } from './embedder.js';
import { maxAbsDiff, TempModels, words } from './test-fixtures.js';

const models = new TempModels();
let dir: string;
let embedder: OnnxEmbedder;

before(async () => {
  dir = await models.build({ task: 'embedding', quantized: true, seed: 1 }, 'tiny-embedder');
  embedder = await OnnxEmbedder.load(dir, { maxLength: 24, batchSize: 4, threads: 1 });
});
after(async () => {
  await embedder.dispose();
  await models.cleanup();
});

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('OnnxEmbedder', () => {
  it('reports ModelInfo from the folder and the onnx file hash', () => {
    assert.equal(embedder.info.id, 'tiny-embedder');
    assert.equal(embedder.info.backend, 'onnx');
    assert.match(embedder.info.version, /^sha256:[0-9a-f]{16}$/);
    assert.equal(embedder.dimension, 64);
    assert.equal(embedder.maxLength, 24);
  });

  it('returns one L2-normalised vector of `dimension` per text, in order', async () => {
    const texts = ['the claim is true', 'paris is the capital of france', '', 'zzz qqq'];
    const out = await embedder.embed(texts);
    assert.equal(out.length, texts.length);
    for (const v of out) {
      assert.ok(v instanceof Float32Array);
      assert.equal(v.length, 64);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    }
    assert.ok(maxAbsDiff(out[0], out[1]) > 1e-3, 'different texts give different vectors');
    assert.deepEqual(await embedder.embed([]), []);
  });

  it('batching: a batch of n equals n single calls (within 1e-5)', async () => {
    // Mixed lengths force padding and the length-sorted batching path (batchSize 4 < 9 texts).
    const texts = Array.from({ length: 9 }, (_, i) => words(1 + ((i * 5) % 17), i));
    const batched = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]]);
      assert.ok(maxAbsDiff(batched[i], single) < 1e-5, `text ${i}: ${maxAbsDiff(batched[i], single)}`);
    }
  });

  it('truncation: a too-long input equals its truncated prefix and does not throw', async () => {
    // maxLength 24 = [CLS] + 22 one-token words + [SEP].
    const [long] = await embedder.embed([words(200)]);
    const [prefix] = await embedder.embed([words(22)]);
    const [shorter] = await embedder.embed([words(21)]);
    assert.ok(maxAbsDiff(long, prefix) < 1e-6);
    assert.ok(maxAbsDiff(long, shorter) > 1e-4, 'the cut really is at maxLength');
  });

  it('inputs past max_position_embeddings are truncated by default, not an error', async () => {
    const e = await OnnxEmbedder.load(dir); // no maxLength: capped by config (128 positions)
    try {
      assert.equal(e.maxLength, 128);
      const [v] = await e.embed([words(1000)]);
      assert.equal(v.length, 64);
    } finally {
      await e.dispose();
    }
  });

  it('is deterministic across calls and across loads', async () => {
    const texts = ['evidence supports the claim', 'the moon is not made of cheese'];
    const a = await embedder.embed(texts);
    const b = await embedder.embed(texts);
    const other = await OnnxEmbedder.load(dir, { maxLength: 24 });
    try {
      const c = await other.embed(texts);
      for (let i = 0; i < texts.length; i++) {
        assert.deepEqual(a[i], b[i]);
        assert.ok(maxAbsDiff(a[i], c[i]) < 1e-6);
      }
      assert.equal(other.info.version, embedder.info.version);
    } finally {
      await other.dispose();
    }
  });

  it('a folder that ships only onnx/model_quantized.onnx (as models/embedder does) loads it when no dtype is asked', async () => {
    const only = await models.build({ task: 'embedding', quantized: true, seed: 1 }, 'tiny-int8-only');
    await rm(join(only, 'onnx', 'model.onnx'));
    const e = await OnnxEmbedder.load(only, { maxLength: 24 });
    try {
      assert.equal(e.info.file, 'onnx/model_quantized.onnx');
      const q8 = await OnnxEmbedder.load(dir, { maxLength: 24, dtype: 'q8' });
      try {
        const [a] = await e.embed(['the claim is true']);
        const [b] = await q8.embed(['the claim is true']);
        assert.ok(maxAbsDiff(a!, b!) < 1e-6, 'the int8 file, as dtype q8 reads it');
      } finally {
        await q8.dispose();
      }
    } finally {
      await e.dispose();
    }
    // Asked for fp32 explicitly, the missing file is still an error naming it.
    await assert.rejects(OnnxEmbedder.load(only, { dtype: 'fp32' }), /model\.onnx/);
  });

  it('CLS pooling differs from mean pooling and is still normalised', async () => {
    const cls = await OnnxEmbedder.load(dir, { pooling: 'cls', maxLength: 24 });
    try {
      const [c] = await cls.embed(['the claim is true']);
      const [m] = await embedder.embed(['the claim is true']);
      assert.ok(Math.abs(norm(c) - 1) < 1e-5);
      assert.ok(maxAbsDiff(c, m) > 1e-3);
    } finally {
      await cls.dispose();
    }
  });

  it('q8 loads model_quantized.onnx: another hash, close to fp32', async () => {
    const q8 = await OnnxEmbedder.load(dir, { dtype: 'q8', maxLength: 24 });
    try {
      assert.notEqual(q8.info.version, embedder.info.version);
      const [q] = await q8.embed(['evidence supports the claim']);
      const [f] = await embedder.embed(['evidence supports the claim']);
      const cos = q.reduce((s, x, i) => s + x * f[i], 0);
      assert.ok(cos > 0.99, `cosine ${cos}`);
      assert.ok(maxAbsDiff(q, f) > 0, 'weights really are quantized');
    } finally {
      await q8.dispose();
    }
  });
});
