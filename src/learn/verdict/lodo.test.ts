import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auroc, figuresOf, fitLogistic, riskCoverage, type Decided } from './lodo.js';
import { fitCalibrator } from './fit-verdict.js';
import { isRight, type LabelledPairs } from './labelled-pairs.js';
import type { DomainItem } from './domains.js';

test('auroc: perfect, reversed and tied rankings', () => {
  assert.equal(auroc([0.9, 0.8, 0.2, 0.1], [true, true, false, false]), 1);
  assert.equal(auroc([0.1, 0.2, 0.8, 0.9], [true, true, false, false]), 0);
  assert.equal(auroc([0.5, 0.5, 0.5, 0.5], [true, false, true, false]), 0.5);
  assert.equal(auroc([0.5, 0.4], [true, true]), 0.5);
});

test('riskCoverage: the most confident share answered first', () => {
  const p = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2];
  const right = [true, true, true, true, false, true, false, false];
  const r = riskCoverage(p, right, 0.55);
  assert.equal(r.selectiveAccuracy['25'], 1);
  assert.equal(r.selectiveAccuracy['50'], 1);
  assert.equal(r.selectiveAccuracy['100'], 5 / 8);
  assert.deepEqual(r.atLevel, { level: 0.55, coverage: 0.5, accuracy: 1 });
  assert.ok(r.aurc > 0 && r.aurc < 3 / 8);
  assert.equal(r.curve.length, 20);
});

test('fitLogistic separates a separable feature', () => {
  const xs = [[0], [0.1], [0.2], [0.8], [0.9], [1]];
  const ys = [false, false, false, true, true, true];
  const { weights, bias } = fitLogistic(xs, ys);
  const p = (x: number) => 1 / (1 + Math.exp(-(bias + weights[0]! * x)));
  assert.ok(p(0.95) > 0.8 && p(0.05) < 0.2);
});

test('isRight and the calibrator read a further right label (RTE not_entailment)', () => {
  const it = { gold: 'NOT ENOUGH INFO' as const, alsoRight: ['REFUTES' as const] };
  assert.ok(isRight(it, 'REFUTES') && isRight(it, 'NOT ENOUGH INFO') && !isRight(it, 'SUPPORTS'));
  // Contradicting evidence labelled {NEI, REFUTES}: the calibrator must not push it towards SUPPORTS.
  const items: LabelledPairs[] = [];
  for (let i = 0; i < 20; i++) {
    items.push({ evidence: [{ entailment: 0.9, neutral: 0.05, contradiction: 0.05 }], gold: 'SUPPORTS' });
    items.push({ evidence: [{ entailment: 0.05, neutral: 0.05, contradiction: 0.9 }], gold: 'NOT ENOUGH INFO', alsoRight: ['REFUTES'] });
  }
  const c = fitCalibrator(items, 500);
  assert.equal(c.weights.length, 3);
});

test('figuresOf: majority, recall and accuracy with further right labels', () => {
  const item = (gold: LabelledPairs['gold'], alsoRight?: LabelledPairs['alsoRight']): DomainItem => {
    const p: LabelledPairs = { evidence: [], gold, ...(alsoRight ? { alsoRight } : {}) };
    return { domain: 'rte', group: 'g', columbia: p, concat: p };
  };
  const items = [item('SUPPORTS'), item('NOT ENOUGH INFO', ['REFUTES']), item('NOT ENOUGH INFO', ['REFUTES'])];
  const dec = (label: Decided['label'], right: boolean): Decided => ({ label, right, probs: { SUPPORTS: 0.2, REFUTES: 0.6, 'NOT ENOUGH INFO': 0.2 }, signals: { probs: { SUPPORTS: 0.2, REFUTES: 0.6, 'NOT ENOUGH INFO': 0.2 }, label, relevance: 1, twinMargin: 0, sentences: [], gate: 0 } });
  const f = figuresOf(items, [dec('REFUTES', false), dec('REFUTES', true), dec('NOT ENOUGH INFO', true)]);
  assert.equal(f.majority.label, 'NOT ENOUGH INFO');
  assert.equal(f.majority.accuracy, +(2 / 3).toFixed(4));
  assert.equal(f.recall.SUPPORTS, 0);
  assert.equal(f.recall['NOT ENOUGH INFO'], 1);
});
