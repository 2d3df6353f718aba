import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OnnxEntailmentModel } from './entailment.js';
import { ModelLoadError } from './errors.js';
import { OnnxPairScorer } from './pair-scorer.js';
import { sigmoid } from './math.js';
import { TempModels, words } from './test-fixtures.js';

const models = new TempModels();
const SEED = 11;
let nliA: OnnxEntailmentModel;
let nliB: OnnxEntailmentModel;

const pairs = [
  { premise: 'the study found the vaccine reduces risk', hypothesis: 'the vaccine reduces risk' },
  { premise: 'paris is the capital of france', hypothesis: 'london is the capital of france' },
  { premise: 'water', hypothesis: words(30) },
];

before(async () => {
  // Same seed => identical weights and logits; only the id2label order differs.
  const a = await models.build({ task: 'classification', seed: SEED, id2label: { 0: 'entailment', 1: 'neutral', 2: 'contradiction' } });
  const b = await models.build({ task: 'classification', seed: SEED, id2label: { 0: 'CONTRADICTION', 1: 'ENTAILMENT', 2: 'NEUTRAL' } });
  nliA = await OnnxEntailmentModel.load(a, { maxLength: 32 });
  nliB = await OnnxEntailmentModel.load(b, { maxLength: 32 });
});
after(async () => {
  await nliA.dispose();
  await nliB.dispose();
  await models.cleanup();
});

describe('OnnxEntailmentModel', () => {
  it('returns a probability triple per pair', async () => {
    const out = await nliA.predict(pairs);
    assert.equal(out.length, pairs.length);
    for (const p of out) {
      const sum = p.entailment + p.neutral + p.contradiction;
      assert.ok(Math.abs(sum - 1) < 1e-6);
      for (const v of Object.values(p)) assert.ok(v >= 0 && v <= 1);
    }
    assert.deepEqual(await nliA.predict([]), []);
  });

  it('follows id2label order from config.json, not a fixed order', async () => {
    assert.deepEqual(nliA.labels, { entailment: 0, neutral: 1, contradiction: 2 });
    assert.deepEqual(nliB.labels, { contradiction: 0, entailment: 1, neutral: 2 });
    const a = await nliA.predict(pairs);
    const b = await nliB.predict(pairs);
    for (let i = 0; i < pairs.length; i++) {
      // logit 0 is "entailment" in A and "contradiction" in B, etc.
      assert.equal(b[i].contradiction, a[i].entailment);
      assert.equal(b[i].entailment, a[i].neutral);
      assert.equal(b[i].neutral, a[i].contradiction);
      assert.notEqual(a[i].entailment, a[i].neutral, 'logits are distinct, so the check is meaningful');
    }
  });

  it('batching and truncation of pairs', async () => {
    const batched = await nliA.predict(pairs);
    for (let i = 0; i < pairs.length; i++) {
      const [single] = await nliA.predict([pairs[i]]);
      assert.ok(Math.abs(single.entailment - batched[i].entailment) < 1e-5);
    }
    // maxLength 32, pair template adds 3 specials: premise 'water' (1 token) leaves 28 hypothesis tokens.
    const [long] = await nliA.predict([{ premise: 'water', hypothesis: words(500) }]);
    const [prefix] = await nliA.predict([{ premise: 'water', hypothesis: words(28) }]);
    assert.ok(Math.abs(long.entailment - prefix.entailment) < 1e-6);
    assert.ok(Math.abs(long.neutral - prefix.neutral) < 1e-6);
  });

  it('refuses labels it cannot map, naming the labels; labelIndices overrides', async () => {
    const dir = await models.build({ task: 'classification', numLabels: 3, seed: SEED }); // LABEL_0..2
    await assert.rejects(OnnxEntailmentModel.load(dir), (e: unknown) => {
      assert.ok(e instanceof ModelLoadError);
      assert.equal(e.code, 'labels-unmapped');
      assert.match(e.message, /LABEL_0/);
      assert.match(e.message, /config\.json/);
      return true;
    });
    const twoWay = await models.build({ task: 'classification', seed: SEED, id2label: { 0: 'entailment', 1: 'not_entailment' } });
    await assert.rejects(OnnxEntailmentModel.load(twoWay), /neutral/);

    const m = await OnnxEntailmentModel.load(dir, { labelIndices: { entailment: 0, neutral: 1, contradiction: 2 }, maxLength: 32 });
    try {
      const [x] = await m.predict([pairs[0]]);
      const [y] = await nliA.predict([pairs[0]]);
      assert.equal(x.entailment, y.entailment);
    } finally {
      await m.dispose();
    }
  });
});

describe('OnnxPairScorer', () => {
  const qp = [
    { query: 'capital of france', passage: 'paris is the capital of france' },
    { query: 'capital of france', passage: 'the moon orbits the earth' },
    { query: 'vaccine risk', passage: words(40) },
  ];

  it('single logit: raw logit by default, sigmoid on request', async () => {
    const dir = await models.build({ task: 'classification', numLabels: 1, seed: 3 });
    const raw = await OnnxPairScorer.load(dir, { maxLength: 32 });
    const prob = await OnnxPairScorer.load(dir, { maxLength: 32, scoreAs: 'probability' });
    try {
      const r = await raw.score(qp);
      const p = await prob.score(qp);
      assert.equal(r.length, qp.length);
      for (let i = 0; i < qp.length; i++) assert.ok(Math.abs(p[i] - sigmoid(r[i])) < 1e-9);
      assert.ok(r.some((x) => x < 0 || x > 1), 'raw logits are not squashed');
      const singles = await Promise.all(qp.map(async (x) => (await raw.score([x]))[0]));
      for (let i = 0; i < qp.length; i++) assert.ok(Math.abs(singles[i] - r[i]) < 1e-5);
    } finally {
      await raw.dispose();
      await prob.dispose();
    }
  });

  it('multi-logit: probability of the label named like relevant/entailment/LABEL_1', async () => {
    const relevant = await models.build({ task: 'classification', seed: 5, id2label: { 0: 'relevant', 1: 'irrelevant' } });
    const generic = await models.build({ task: 'classification', seed: 5, numLabels: 2 });
    const s1 = await OnnxPairScorer.load(relevant, { maxLength: 32 });
    const s2 = await OnnxPairScorer.load(generic, { maxLength: 32 });
    const s3 = await OnnxPairScorer.load(generic, { maxLength: 32, scoreAs: 'logit' });
    try {
      const a = await s1.score(qp); // index 0 ("relevant")
      const b = await s2.score(qp); // index 1 ("LABEL_1")
      const l = await s3.score(qp);
      for (let i = 0; i < qp.length; i++) {
        assert.ok(Math.abs(a[i] + b[i] - 1) < 1e-6, 'same logits, complementary labels');
        assert.ok(!(l[i] >= 0 && l[i] <= 1) || Math.abs(l[i] - b[i]) > 1e-3, 'logit mode is not the probability');
      }
    } finally {
      await Promise.all([s1.dispose(), s2.dispose(), s3.dispose()]);
    }
  });

  it('multi-logit without a recognisable positive label is a load error', async () => {
    const dir = await models.build({ task: 'classification', seed: 5, id2label: { 0: 'foo', 1: 'bar' } });
    await assert.rejects(OnnxPairScorer.load(dir), (e: unknown) => e instanceof ModelLoadError && e.code === 'labels-unmapped');
    const ok = await OnnxPairScorer.load(dir, { positiveLabel: 'bar' });
    await ok.dispose();
  });
});
