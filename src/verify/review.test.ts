import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictOf, pRightOf, reviewFeatures, reviewOf, REVIEW_FEATURES, type ReviewModel, type ReviewSignals } from './review.js';
import { engineNote, weakSpotsOf } from './engine-notes.js';

const signals = (over: Partial<ReviewSignals> = {}): ReviewSignals => ({
  probs: { SUPPORTS: 0.7, REFUTES: 0.1, 'NOT ENOUGH INFO': 0.2 },
  label: 'SUPPORTS',
  relevance: 0.8,
  twinMargin: 0.3,
  sentences: [{ entailment: 0.8, neutral: 0.1, contradiction: 0.1 }],
  gate: 0.14,
  ...over,
});
// P(right) = sigmoid(4 * confidence - 2): 0.5 at confidence 0.5.
const model: ReviewModel = { features: [...REVIEW_FEATURES], weights: [4, 0, 0, 0], bias: -2, level: 0.6, fittedOn: { source: 'test', decisions: 0 } };

test('reviewFeatures: one value per named feature', () => {
  const x = reviewFeatures(signals());
  assert.equal(x.length, REVIEW_FEATURES.length);
  assert.equal(x[0], 0.7);
  assert.equal(x[1], 1); // the one sentence reads as support
  assert.equal(x[2], 0.8); // its entailment
  assert.equal(x[3], 0); // not NOT ENOUGH INFO
});

test('a confident verdict needs no review; an unsure one does, with its reason', () => {
  assert.equal(reviewOf(model, signals({ probs: { SUPPORTS: 0.9, REFUTES: 0.05, 'NOT ENOUGH INFO': 0.05 } })), undefined);
  const unsure = signals({ probs: { SUPPORTS: 0.4, REFUTES: 0.3, 'NOT ENOUGH INFO': 0.3 } });
  assert.ok(pRightOf(model, unsure) < 0.6);
  assert.equal(reviewOf(model, unsure)?.reason, 'uncertain');
  assert.equal(reviewOf(model, { ...unsure, relevance: 0.1 })?.reason, 'off-topic');
  const both = { ...unsure, sentences: [{ entailment: 0.7, neutral: 0.1, contradiction: 0.2 }, { entailment: 0.1, neutral: 0.2, contradiction: 0.7 }] };
  assert.ok(conflictOf(both.sentences) >= 0.4);
  const r = reviewOf(model, both)!;
  assert.equal(r.reason, 'conflicting-evidence');
  assert.match(r.message, /below 0\.60/);
});

test('engine notes: the offline engine names figures it could not align and long-range negation', () => {
  const spots = weakSpotsOf('Orai1 knockdown reduces metastasis by 58%', [{ text: 'Metastasis fell by 28% after knockdown.' }]);
  assert.deepEqual(spots.map((s) => s.kind), ['unaligned-number']);
  assert.match(spots[0]!.message, /"58%"/);
  assert.deepEqual(weakSpotsOf('Aspirin reduces the risk by 20%', [{ text: 'The risk fell by 20 %.' }]), []);
  const neg = weakSpotsOf('The drug did not change the rate of heart attacks in the older patients who took it daily for years', [{ text: 'It lowered the rate.' }]);
  assert.deepEqual(neg.map((s) => s.kind), ['long-range-negation']);
  assert.deepEqual(engineNote({ id: 'onnx-model', version: '1', backend: 'onnx' }, 'The rate rose by 58%', [{ text: 'It fell.' }]).weakSpots, []);
  assert.equal(engineNote({ id: 'veracite-nli-use@x', version: '1', backend: 'trained' }, 'a', []).offline, true);
});
