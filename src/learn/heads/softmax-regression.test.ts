import { test } from 'node:test';
import assert from 'node:assert/strict';
import { label, predictProba, trainSoftmax, type Dataset } from './softmax-regression.js';
import { Rng } from '../../util/rng.js';
import { argmax } from './metrics.js';

/** Three Gaussian blobs in 5-d (2 informative dims + 3 noise), well separated. */
function blobs(n: number, seed: number): Dataset & { cls: number[] } {
  const rng = new Rng(seed);
  const centres = [[4, 0], [-4, 4], [-4, -4]];
  const dim = 5;
  const x = new Float32Array(n * dim);
  const y = new Uint8Array(n);
  const cls: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 3;
    x[i * dim] = centres[k][0] + rng.normal();
    x[i * dim + 1] = centres[k][1] + rng.normal();
    for (let j = 2; j < dim; j++) x[i * dim + j] = rng.normal() * 3 + 10; // off-centre noise: tests standardisation
    y[i] = label(k);
    cls.push(k);
  }
  return { x, y, rows: n, dim, cls };
}

function accuracy(probs: Float32Array, classes: number, gold: number[]): number {
  return gold.filter((g, i) => argmax(probs.subarray(i * classes, (i + 1) * classes)) === g).length / gold.length;
}

test('linear softmax learns a separable 3-class problem', () => {
  const train = blobs(600, 1);
  const test = blobs(300, 2);
  const r = trainSoftmax(train, 3, { seed: 7, epochs: 30, learningRate: 0.01, validation: test });
  assert.ok(accuracy(predictProba(r.model, test.x, test.rows), 3, test.cls) > 0.97);
});

test('one hidden layer learns XOR, which a linear model cannot', () => {
  const rng = new Rng(3);
  const n = 800;
  const x = new Float32Array(n * 2);
  const y = new Uint8Array(n);
  const gold: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = rng.next() < 0.5 ? -1 : 1;
    const b = rng.next() < 0.5 ? -1 : 1;
    x[2 * i] = a + rng.normal() * 0.1;
    x[2 * i + 1] = b + rng.normal() * 0.1;
    gold.push(a * b > 0 ? 1 : 0);
    y[i] = label(gold[i]);
  }
  const data = { x, y, rows: n, dim: 2 };
  const mlp = trainSoftmax(data, 2, { seed: 1, hidden: 8, epochs: 60, learningRate: 0.01, l2: 0 });
  const lin = trainSoftmax(data, 2, { seed: 1, epochs: 60, learningRate: 0.01, l2: 0 });
  assert.ok(accuracy(predictProba(mlp.model, x, n), 2, gold) > 0.95);
  assert.ok(accuracy(predictProba(lin.model, x, n), 2, gold) < 0.8);
});

test('training is deterministic for a seed and differs across seeds', () => {
  const train = blobs(300, 4);
  const a = trainSoftmax(train, 3, { seed: 13, epochs: 5, hidden: 4 }).model;
  const b = trainSoftmax(train, 3, { seed: 13, epochs: 5, hidden: 4 }).model;
  const c = trainSoftmax(train, 3, { seed: 14, epochs: 5, hidden: 4 }).model;
  assert.deepEqual(a.w1, b.w1);
  assert.deepEqual(a.w2, b.w2);
  assert.deepEqual(a.b2, b.b2);
  assert.notDeepEqual(a.w2, c.w2);
});

test('a label set trains the set, not one member: not_entailment spreads over neutral + contradiction', () => {
  // Class 0 vs the set {1, 2}: P(0) must separate, and P(1) + P(2) must carry the rest.
  const train = blobs(600, 5);
  const y = Uint8Array.from(train.cls, (k) => (k === 0 ? label(0) : label(1) | label(2)));
  const r = trainSoftmax({ ...train, y }, 3, { seed: 2, epochs: 20, learningRate: 0.01 });
  const p = predictProba(r.model, train.x, train.rows);
  let right = 0;
  train.cls.forEach((k, i) => {
    if ((p[i * 3] >= 0.5) === (k === 0)) right++;
  });
  assert.ok(right / train.rows > 0.97);
});

test('standardisation keeps constant features finite', () => {
  const n = 50;
  const x = new Float32Array(n * 2);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x[2 * i] = i < 25 ? -1 : 1;
    x[2 * i + 1] = 3; // constant
    y[i] = label(i < 25 ? 0 : 1);
  }
  const r = trainSoftmax({ x, y, rows: n, dim: 2 }, 2, { seed: 1, epochs: 10 });
  assert.equal(r.model.std[1], 1);
  assert.ok(predictProba(r.model, x, n).every(Number.isFinite));
});
