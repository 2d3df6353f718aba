/**
 * USE-lite embedder: the fast (onnxruntime) path must reproduce the reference (tfjs-wasm) vectors.
 * The 200-passage comparison uses reference vectors stored in fixtures/ (see make-reference-fixture.ts);
 * a 10-passage live run of the reference path checks both the fast path and that fixture.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Embedder } from '../types.js';
import { createUseEmbedder } from './index.js';
import { FIXTURE_DIR, passagesFromCorpus, type PassageFixture } from './make-reference-fixture.js';
import { UseTokenizer } from './tokenizer.js';
import { cosine, fromFloat16 } from './util.js';
import { loadUseWeights, useModelVersion } from './weights.js';

const fixture = JSON.parse(readFileSync(join(FIXTURE_DIR, 'passages.json'), 'utf8')) as PassageFixture;
const texts = fixture.passages.map((p) => p.text);
const stored = fromFloat16(new Uint16Array(new Uint8Array(readFileSync(join(FIXTURE_DIR, 'reference-vectors.f16'))).buffer));
const storedVector = (i: number): Float32Array => stored.subarray(i * 512, (i + 1) * 512);

/** Live-check passages: real text from the sample corpus when present, else the fixture's. */
function livePassages(): string[] {
  const corpus = join(FIXTURE_DIR, '../../../../data/samples/scifact/corpus.jsonl');
  const fromCorpus = existsSync(corpus) ? passagesFromCorpus(corpus, 400).slice(200).map((p) => p.text) : [];
  return (fromCorpus.length >= 10 ? fromCorpus : texts).slice(0, 10);
}

const ODD = ['', ' ', 'a', '\t\nx', 'café naïve ﬁ ①', '😀 emoji 😀😀', '中文字符', 'x'.repeat(2000), 'constructor __proto__'];

let fast: Embedder;
let reference: Embedder;
before(async () => {
  [fast, reference] = await Promise.all([createUseEmbedder(), createUseEmbedder({ backend: 'reference' })]);
});
after(async () => {
  await fast.dispose?.();
  await reference.dispose?.();
});

describe('USE-lite embedder', () => {
  test('fixture was generated from the installed weights', () => {
    assert.equal(fixture.passages.length, 200);
    assert.equal(stored.length, 200 * 512);
    assert.equal(fixture.modelVersion, useModelVersion(), 'weights changed: rerun make-reference-fixture.ts');
  });

  test('both paths report the same model, different runtimes', () => {
    assert.match(fast.info.id, /^use-lite-512@@energetic-ai\/model-embeddings-en@\d/);
    assert.equal(reference.info.id, fast.info.id);
    assert.equal(reference.info.version, fast.info.version);
    assert.match(fast.info.version, /^[0-9a-f]{16}$/);
    assert.notEqual(reference.info.backend, fast.info.backend);
    assert.equal(fast.dimension, 512);
  });

  test('fast tokenizer is token-for-token the package tokenizer', () => {
    const require = createRequire(import.meta.url);
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
      EmbeddingsModel: new (d: unknown) => { tokenizer: { encode(t: string): number[] } };
    };
    const { vocabulary } = loadUseWeights();
    const original = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
    const ours = new UseTokenizer(vocabulary);
    for (const t of [...texts, ...ODD]) assert.deepEqual(ours.encode(t), original.encode(t), JSON.stringify(t.slice(0, 40)));
  });

  test('fast path matches stored reference vectors on 200 passages (cosine >= 0.999)', async (t) => {
    const vectors = await fast.embed(texts);
    assert.equal(vectors.length, 200);
    const cos = vectors.map((v, i) => cosine(v, storedVector(i)));
    const worst = Math.min(...cos);
    t.diagnostic(`200 passages: worst cosine(fast, reference) = 1 - ${(1 - worst).toExponential(1)}`);
    for (const [i, c] of cos.entries()) assert.ok(c >= 0.999, `passage ${i}: cosine ${c}`);
    // Much tighter in practice; a drop towards 0.999 means a real graph difference, not rounding.
    assert.ok(worst >= 0.9999, `worst cosine ${worst}`);
  });

  test('live reference run agrees with the fast path and with the stored fixture', async () => {
    const live = livePassages();
    const [r, f] = [await reference.embed(live), await fast.embed(live)];
    for (let i = 0; i < live.length; i++) assert.ok(cosine(r[i], f[i]) >= 0.999, `live passage ${i}: ${cosine(r[i], f[i])}`);
    const again = await reference.embed(texts.slice(0, 3));
    for (let i = 0; i < 3; i++) assert.ok(cosine(again[i], storedVector(i)) >= 0.99999, `fixture ${i} drifted`);
  });

  test('vectors are unit length Float32Arrays', async () => {
    for (const e of [fast, reference]) {
      for (const v of await e.embed(['hello world', texts[0]])) {
        assert.ok(v instanceof Float32Array && v.length === 512);
        assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
      }
    }
  });

  test('a paraphrase is closer than an unrelated sentence', async () => {
    const pair = ['The cat sat on the mat.', 'A cat was sitting on the rug.', 'Interest rates rose sharply in the bond market.'];
    for (const e of [fast, reference]) {
      const [a, b, c] = await e.embed(pair);
      assert.ok(cosine(a, b) > cosine(a, c) + 0.1, `${e.info.backend}: ${cosine(a, b)} vs ${cosine(a, c)}`);
    }
  });

  test('a batch of n equals n single calls', async () => {
    const batch = [texts[5], 'short one', texts[6].slice(0, 200), '', texts[7]];
    const together = await fast.embed(batch);
    for (const [i, t] of batch.entries()) {
      const [alone] = await fast.embed([t]);
      assert.ok(cosine(alone, together[i]) >= 0.99999, `item ${i}`);
    }
    const ref = await reference.embed(batch.slice(1, 3));
    assert.ok(cosine(ref[0], (await reference.embed([batch[1]]))[0]) >= 0.99999);
    assert.ok(cosine(ref[1], together[2]) >= 0.999);
  });

  test('empty input gets the model no-token vector, in place', async () => {
    assert.deepEqual(await fast.embed([]), []);
    const f = await fast.embed(['', 'hello', '']);
    const r = await reference.embed(['', 'hello', '']); // trailing empty: a row the package would drop
    assert.equal(f.length, 3);
    assert.equal(r.length, 3);
    assert.deepEqual(f[0], f[2]);
    assert.ok(cosine(f[0], r[0]) >= 0.999 && cosine(f[2], r[2]) >= 0.999);
    assert.ok(cosine(f[1], r[1]) >= 0.999);
    assert.ok(f[0].every(Number.isFinite) && Math.abs(Math.hypot(...f[0]) - 1) < 1e-5);
  });

  test('deterministic across calls', async () => {
    const a = await fast.embed(texts.slice(0, 40));
    const b = await fast.embed(texts.slice(0, 40));
    assert.deepEqual(a, b);
    const ra = await reference.embed(texts.slice(0, 2));
    const rb = await reference.embed(texts.slice(0, 2));
    assert.deepEqual(ra, rb);
  });
});
