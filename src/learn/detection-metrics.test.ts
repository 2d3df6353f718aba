import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { averagePrecision, chooseOperatingPoint, parseCriterion, precisionAtRecall, prCurve, rocAuc } from './detection-metrics.js';

describe('detection metrics', () => {
  const scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
  const pos = [true, false, true, false, false, true];

  it('builds the PR curve from the strictest threshold down', () => {
    const c = prCurve(scores, pos);
    assert.deepEqual(c.map((p) => p.flagged), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(c.map((p) => +p.precision.toFixed(3)), [1, 0.5, 0.667, 0.5, 0.4, 0.5]);
    assert.deepEqual(c.map((p) => +p.recall.toFixed(3)), [0.333, 0.333, 0.667, 0.667, 0.667, 1]);
    assert.equal(precisionAtRecall(c, 0.15), 1);
    assert.equal(precisionAtRecall(c, 0.5), 2 / 3);
    assert.ok(Math.abs(averagePrecision(c) - (1 / 3 + (1 / 3) * (2 / 3) + (1 / 3) * 0.5)) < 1e-12);
  });

  it('keeps tied scores together', () => {
    const c = prCurve([0.5, 0.5, 0.1], [true, false, true]);
    assert.equal(c.length, 2);
    assert.equal(c[0]!.flagged, 2);
  });

  it('ROC AUC matches the pairwise definition, ties counting half', () => {
    // positives 0.9, 0.7, 0.4 vs negatives 0.8, 0.6, 0.5: wins 3 + 2 + 0 = 5 of 9.
    assert.ok(Math.abs(rocAuc(scores, pos) - 5 / 9) < 1e-12);
    assert.equal(rocAuc([0.5, 0.5], [true, false]), 0.5);
    assert.equal(rocAuc([1, 0], [true, false]), 1);
    assert.ok(Number.isNaN(rocAuc([1, 2], [true, true])));
  });

  it('chooses operating points by criterion', () => {
    const c = prCurve(scores, pos);
    // F1 ties (2/3 at 3 and at 6 flagged): the stricter threshold wins.
    assert.equal(chooseOperatingPoint(c, { kind: 'max-f1' }).point.flagged, 3);
    assert.equal(chooseOperatingPoint(c, { kind: 'precision', target: 0.6 }).point.flagged, 3);
    const unmet = chooseOperatingPoint(c, { kind: 'precision', target: 1.01 });
    assert.equal(unmet.met, false);
    assert.deepEqual(parseCriterion('precision:0.9'), { kind: 'precision', target: 0.9 });
    assert.throws(() => parseCriterion('best'));
  });
});
