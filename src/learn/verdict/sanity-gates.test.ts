import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { calibrated } from '../../verify/aggregate.js';
import { Rng } from '../../util/rng.js';
import { calibratorSpread, firstLargest, fitCalibrator, nonIncreasing, type LabelledPairs } from './fit-verdict.js';
import { CalibrationRefusedError, fitGate, GATE_THRESHOLDS, sanityGates, type NliLabel, type NliReading } from './sanity-gates.js';

const ent = (e: number, n: number, c: number) => ({ entailment: e, neutral: n, contradiction: c });
const GOLDS: NliLabel[] = ['entailment', 'neutral', 'contradiction'];

/** 90 readings: a model right `skill` of the time (else it answers the next label), with spread. */
function readings(read: (gold: NliLabel, i: number) => { entailment: number; neutral: number; contradiction: number }): NliReading[] {
  return Array.from({ length: 90 }, (_, i) => ({ gold: GOLDS[i % 3]!, probs: read(GOLDS[i % 3]!, i) }));
}
const good = (gold: NliLabel, i: number) => {
  const hi = 0.6 + (i % 7) / 20;
  const lo = (1 - hi) / 2;
  return gold === 'entailment' ? ent(hi, lo, lo) : gold === 'neutral' ? ent(lo, hi, lo) : ent(lo, lo, hi);
};

describe('sanity gates', () => {
  it('a model that reads NLI passes; its figures are the accuracy and both rankings', () => {
    const r = sanityGates(readings(good));
    assert.equal(r.passed, true, JSON.stringify(r));
    assert.deepEqual(r.checks.map((c) => c.name), ['accuracy', 'entailment ranking', 'contradiction ranking']);
    assert.equal(r.checks[0]!.value, 1);
  });

  it('refuses a constant model (chance accuracy, no ranking) and says so', () => {
    const r = sanityGates(readings(() => ent(0.02, 0.015, 0.965)));
    assert.equal(r.passed, false);
    const acc = r.checks.find((c) => c.name === 'accuracy')!;
    assert.ok(!acc.passed && Math.abs(acc.value - 1 / 3) < 1e-9);
    assert.match(acc.reason, /near chance .* it answered 0 entailment, 0 neutral, 90 contradiction/);
    assert.equal(r.checks.find((c) => c.name === 'entailment ranking')!.value, 0.5);
    const e = new CalibrationRefusedError('model profile "x"', r);
    assert.match(e.message, /refused by the sanity gates, nothing was saved: accuracy 0\.333 \(needs >= 0\.45\)/);
  });

  it('refuses a label-swapped model: its rankings run backwards', () => {
    const swapped = (gold: NliLabel, i: number) => {
      const p = good(gold, i);
      return ent(p.contradiction, p.neutral, p.entailment);
    };
    const r = sanityGates(readings(swapped));
    assert.equal(r.passed, false);
    const rank = r.checks.find((c) => c.name === 'entailment ranking')!;
    assert.ok(rank.value < 0.1, String(rank.value));
    assert.match(rank.reason, /labels look swapped/);
  });

  it('refuses a random model', () => {
    const rng = new Rng(5);
    const r = sanityGates(readings(() => {
      const [a, b, c] = [rng.next(), rng.next(), rng.next()];
      return ent(a / (a + b + c), b / (a + b + c), c / (a + b + c));
    }));
    assert.equal(r.passed, false);
    assert.ok(r.checks.find((c) => c.name === 'accuracy')!.value < GATE_THRESHOLDS.minAccuracy);
  });

  it('refuses too few pairs to tell a model from chance', () => {
    assert.equal(sanityGates(readings(good).slice(0, 12)).passed, false);
  });

  it('the fit gate refuses a calibrator blind to the readings, or with exploding weights', () => {
    const blind = { weights: [[0, 0, 0, 5], [0, 0, 0, 1], [0, 0, 0, -5]], bias: [0, 0, 0] };
    assert.equal(fitGate(blind).passed, false);
    assert.match(fitGate(blind).reason, /relevance alone/);
    assert.equal(fitGate({ weights: [[1e13, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], bias: [0, 0, 0] }).passed, false);
    assert.equal(fitGate({ weights: [[2, -1, 0, 1], [-1, 2, 0, 0], [0, 0, 0, 0]], bias: [0, 0, 0] }).passed, true);
  });
});

describe('the sign-constrained, regularised calibrator', () => {
  it('projects onto non-increasing sequences', () => {
    assert.deepEqual(nonIncreasing([3, 1, 2]), [3, 1.5, 1.5]);
    assert.deepEqual(nonIncreasing([1, 2, 3]), [2, 2, 2]);
    assert.deepEqual(nonIncreasing([3, 2, 1]), [3, 2, 1]);
    assert.deepEqual(firstLargest([1, 3, 0]), [2, 2, 0]);
    assert.deepEqual(firstLargest([0, 4, 2]), [2, 2, 2]);
    assert.deepEqual(firstLargest([5, 4, 2]), [5, 4, 2]);
  });

  it('a model whose readings run against the labels gets no weight on them, never a flipped one', () => {
    // Label-swapped readings: entailment high on REFUTES pairs, contradiction high on SUPPORTS pairs.
    const items: LabelledPairs[] = [];
    for (let i = 0; i < 60; i++) {
      const j = (i % 10) / 10;
      items.push({ evidence: [ent(0.1, 0.2, 0.7 + 0.2 * j)], gold: 'SUPPORTS', relevance: 0.5 + 0.4 * j });
      items.push({ evidence: [ent(0.7 + 0.2 * j, 0.2, 0.1)], gold: 'REFUTES', relevance: 0.5 + 0.4 * j });
      items.push({ evidence: [ent(0.3, 0.4, 0.3)], gold: 'NOT ENOUGH INFO', relevance: 0.05 + 0.1 * j });
    }
    const c = fitCalibrator(items, 600);
    // More entailment never lowers P(SUPPORTS), more contradiction never raises it.
    for (const rel of [0.1, 0.5, 0.9]) {
      let prev = -1;
      for (const e of [0.05, 0.2, 0.4, 0.6, 0.8, 0.95]) {
        const p = calibrated(c, { SUPPORTS: e, REFUTES: 0.3, 'NOT ENOUGH INFO': 0.3 }, rel).SUPPORTS;
        assert.ok(p >= prev - 1e-12, `P(S) fell from ${prev} to ${p} as entailment rose to ${e}`);
        prev = p;
      }
      let last = 2;
      for (const r of [0.05, 0.2, 0.4, 0.6, 0.8, 0.95]) {
        const p = calibrated(c, { SUPPORTS: 0.3, REFUTES: r, 'NOT ENOUGH INFO': 0.3 }, rel).SUPPORTS;
        assert.ok(p <= last + 1e-12, `P(S) rose from ${last} to ${p} as contradiction rose to ${r}`);
        last = p;
      }
    }
    // ... and so the fit gate refuses it: the readings carry no weight.
    assert.equal(fitGate(c, calibratorSpread(items, c)).passed, false);
  });

  it('a reading with no spread (a constant model) keeps weight 0: finite weights, no 1e13', () => {
    const items: LabelledPairs[] = [];
    for (let i = 0; i < 90; i++) items.push({ evidence: [ent(0.02, 0.015, 0.965)], gold: (['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const)[i % 3], relevance: (i % 3 === 2 ? 0.05 : 0.6) + (i % 10) / 50 });
    const c = fitCalibrator(items, 800);
    for (const w of c.weights.flat()) assert.ok(Math.abs(w) < 100, String(w));
    assert.deepEqual(c.weights.map((w) => [w[0], w[1], w[2]]), [[0, 0, 0], [0, 0, 0], [0, 0, 0]]);
    const gate = fitGate(c, calibratorSpread(items, c));
    assert.equal(gate.passed, false);
  });
});
