import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { aggregateConcat, applyCalibrator, calibrated, calibratorFeatures, calibratorInputs, DEFAULT_AGGREGATE } from '../../verify/aggregate.js';
import { chooseRule, fitCalibrator, fitRule, fitVerdictCalibration, type LabelledPairs } from './fit-verdict.js';
import { claimFolds, heldOutAccuracy } from './held-out.js';
import { Rng } from '../../util/rng.js';
import type { RuleCalibration } from '../../verify/verdict-calibration.js';
import { reliability } from '../../verify/reliability.js';

const ent = (e: number, n: number, c: number) => ({ entailment: e, neutral: n, contradiction: c });

describe('relevance gate', () => {
  it('turns SUPPORTS / REFUTES into NOT ENOUGH INFO when the best evidence is irrelevant', () => {
    const cfg = { ...DEFAULT_AGGREGATE, relevanceThreshold: 0.2 };
    assert.equal(aggregateConcat(ent(0.1, 0.1, 0.8), cfg, 0.05).label, 'NOT ENOUGH INFO');
    assert.equal(aggregateConcat(ent(0.1, 0.1, 0.8), cfg, 0.6).label, 'REFUTES');
    assert.equal(aggregateConcat(ent(0.9, 0.05, 0.05), cfg, 0.6).label, 'SUPPORTS');
  });
});

describe('verdict calibration fitted on labelled pairs', () => {
  // Synthetic but realistic: supported pairs are relevant and entailed; shuffled pairs are irrelevant and
  // (as the SNLI-trained head does) often read as contradictions.
  const items: LabelledPairs[] = [];
  for (let i = 0; i < 60; i++) {
    const j = (i % 10) / 10;
    items.push({ evidence: [ent(0.6 + 0.3 * j, 0.2, 0.2 - 0.1 * j)], gold: 'SUPPORTS', relevance: 0.5 + 0.4 * j });
    items.push({ evidence: [ent(0.1, 0.3, 0.6 + 0.3 * j)], gold: 'REFUTES', relevance: 0.5 + 0.4 * j });
    items.push({ evidence: [ent(0.2, 0.1, 0.7)], gold: 'NOT ENOUGH INFO', relevance: 0.02 + 0.1 * j });
  }
  it('fits a gate that sends irrelevant contradictions to NOT ENOUGH INFO', () => {
    const r = fitRule(items, 'synthetic');
    assert.ok(r.relevanceThreshold! >= 0.12 && r.relevanceThreshold! <= 0.5, String(r.relevanceThreshold));
    assert.ok(r.fittedOn.accuracy > 0.95, String(r.fittedOn.accuracy));
    assert.ok(r.fittedOn.reliability!.ece < 0.15, String(r.fittedOn.reliability!.ece));
  });
  it('reports accuracy over the cited-abstract pairs alone: neither shuffled nor retrieved negatives count there', () => {
    const marked: LabelledPairs[] = items.map((it) => ({ ...it, shuffled: it.gold === 'NOT ENOUGH INFO' }));
    // A retrieved-but-uncited abstract that reads as support: wrong under any fitted gate that lets it through.
    const retrieved: LabelledPairs[] = Array.from({ length: 30 }, () => ({ evidence: [ent(0.9, 0.05, 0.05)], gold: 'NOT ENOUGH INFO' as const, relevance: 0.9, shuffled: false, retrieved: true }));
    const r = fitRule([...marked, ...retrieved], 'synthetic');
    assert.equal(r.fittedOn.citedAccuracy!.pairs, 120, 'the 60 SUPPORTS and 60 REFUTES pairs');
    assert.equal(r.fittedOn.pairs, 210);
  });
  it('the calibrator gives probabilities in [0, 1] summing to 1, deterministically', () => {
    const c = fitCalibrator(items);
    assert.deepEqual(fitCalibrator(items), c);
    const p = applyCalibrator(c, calibratorFeatures({ SUPPORTS: 0.8, REFUTES: 0.1, 'NOT ENOUGH INFO': 0.1 }, 0.9));
    assert.ok(Math.abs(p.SUPPORTS + p.REFUTES + p['NOT ENOUGH INFO'] - 1) < 1e-9);
    assert.ok(p.SUPPORTS > 0.5);
  });
});

describe('claim coverage as a calibrator input', () => {
  // Same-subject abstracts that read as support whatever they are about: only coverage tells the ones that
  // name what the claim is about from the ones that do not.
  const items: LabelledPairs[] = [];
  for (let i = 0; i < 80; i++) {
    const j = (i % 10) / 10;
    items.push({ evidence: [ent(0.6 + 0.2 * j, 0.3, 0.1)], gold: 'SUPPORTS', relevance: 0.7, coverage: 0.7 + 0.3 * j });
    items.push({ evidence: [ent(0.6 + 0.2 * j, 0.3, 0.1)], gold: 'NOT ENOUGH INFO', relevance: 0.7, coverage: 0.1 + 0.3 * j });
  }
  it('learns a weight for coverage and reads it', () => {
    const r = fitRule(items, 'synthetic');
    assert.equal(r.calibrator!.weights[0]!.length, 5, 'ln pS, ln pR, ln pN, relevance, coverage');
    assert.ok(r.fittedOn.accuracy > 0.95, String(r.fittedOn.accuracy));
    const cfg = { ...DEFAULT_AGGREGATE, supportThreshold: r.supportThreshold, refuteThreshold: r.refuteThreshold, relevanceThreshold: r.relevanceThreshold, calibrator: r.calibrator };
    assert.deepEqual(r.calibrator!.inputs, ['coverage']);
    assert.equal(aggregateConcat(ent(0.7, 0.2, 0.1), cfg, 0.7, { coverage: 0.9 }).label, 'SUPPORTS');
    assert.equal(aggregateConcat(ent(0.7, 0.2, 0.1), cfg, 0.7, { coverage: 0.2 }).label, 'NOT ENOUGH INFO');
  });
  it("verify's rules are fitted without coverage, a lone document's with it", () => {
    const cal = fitVerdictCalibration({ concat: items }, 'synthetic', [], { heldOut: false });
    assert.equal(cal.rules.concat!.calibrator!.weights[0]!.length, 4, 'verify reads retrieved documents: no coverage');
    assert.equal(cal.documentRules!.concat!.calibrator!.weights[0]!.length, 5);
    assert.ok(cal.documentRules!.concat!.fittedOn.accuracy > cal.rules.concat!.fittedOn.accuracy + 0.3, 'only coverage separates these pairs');
    const without = fitVerdictCalibration({ concat: items.map(({ coverage: _, ...it }) => it) }, 'synthetic', [], { heldOut: false });
    assert.equal(without.documentRules, undefined, 'no coverage in the pairs, no document rules');
  });
  it('a calibrator fitted before coverage (four weights) ignores it', () => {
    const four = { weights: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], bias: [0, 0, 0] };
    const raw = { SUPPORTS: 0.7, REFUTES: 0.1, 'NOT ENOUGH INFO': 0.2 };
    assert.deepEqual(calibrated(four, raw, 0.5, { coverage: 0.1 }), calibrated(four, raw, 0.5, { coverage: 0.9 }));
    // A file written before `inputs` existed: five weights are ln pS, ln pR, ln pN, relevance, coverage.
    const five = { weights: [[0, 0, 0, 0, 4], [0, 0, 0, 0, 0], [0, 0, 0, 0, -4]], bias: [0, 0, 0] };
    assert.deepEqual(calibratorInputs(five), ['coverage']);
    assert.ok(calibrated(five, raw, 0.5, { coverage: 0.9 }).SUPPORTS > calibrated(five, raw, 0.5, { coverage: 0.1 }).SUPPORTS);
  });
});

describe('the twin margin as a calibrator input', () => {
  // Refuted claims whose evidence reads as entailed as for supported ones: only the claim's counter-claims
  // tell them apart (their opposite is read as more entailed).
  const items: LabelledPairs[] = [];
  for (let i = 0; i < 80; i++) {
    const j = (i % 10) / 10;
    items.push({ evidence: [ent(0.6 + 0.2 * j, 0.3, 0.1)], gold: 'SUPPORTS', relevance: 0.7, coverage: 1, twinMargin: 0.3 + 0.2 * j });
    items.push({ evidence: [ent(0.6 + 0.2 * j, 0.3, 0.1)], gold: 'REFUTES', relevance: 0.7, coverage: 1, twinMargin: -0.3 - 0.2 * j });
  }
  it("is read by verify's rules and by a lone document's, after coverage", () => {
    const cal = fitVerdictCalibration({ concat: items }, 'synthetic', [], { heldOut: false });
    assert.deepEqual(cal.rules.concat!.calibrator!.inputs, ['twinMargin']);
    assert.deepEqual(cal.documentRules!.concat!.calibrator!.inputs, ['coverage', 'twinMargin']);
    assert.ok(cal.rules.concat!.fittedOn.accuracy > 0.95, String(cal.rules.concat!.fittedOn.accuracy));
    const r = cal.rules.concat!;
    const cfg = { ...DEFAULT_AGGREGATE, supportThreshold: r.supportThreshold, refuteThreshold: r.refuteThreshold, relevanceThreshold: r.relevanceThreshold, calibrator: r.calibrator };
    assert.equal(aggregateConcat(ent(0.7, 0.2, 0.1), cfg, 0.7, { twinMargin: 0.4 }).label, 'SUPPORTS');
    assert.equal(aggregateConcat(ent(0.7, 0.2, 0.1), cfg, 0.7, { twinMargin: -0.4 }).label, 'REFUTES');
  });
  it('counts as 0 (no counter-claim) when not computed', () => {
    const c = fitCalibrator(items);
    const raw = { SUPPORTS: 0.7, REFUTES: 0.2, 'NOT ENOUGH INFO': 0.1 };
    assert.deepEqual(calibrated(c, raw, 0.7, { coverage: 1 }), calibrated(c, raw, 0.7, { coverage: 1, twinMargin: 0 }));
  });
});

describe('choosing the rule verify uses', () => {
  const fitted = (accuracy: number) => ({ fittedOn: { accuracy } }) as unknown as RuleCalibration;
  it('keeps columbia unless another rule is better by at least a point of cross-fitted accuracy', () => {
    assert.equal(chooseRule({ columbia: fitted(0.8647), concat: fitted(0.8677) }), 'columbia', '0.3 point: a tie');
    assert.equal(chooseRule({ columbia: fitted(0.84), concat: fitted(0.86) }), 'concat');
    assert.equal(chooseRule({ columbia: fitted(0.86), concat: fitted(0.84) }), 'columbia');
    assert.equal(chooseRule({ concat: fitted(0.8) }), 'concat', 'without columbia the best fitted rule');
  });
  it('compares held-out accuracy when every rule has it, not the in-sample fit', () => {
    const both = (accuracy: number, heldOut: number) => ({ fittedOn: { accuracy, heldOut: { accuracy: heldOut } } }) as unknown as RuleCalibration;
    // Stop 20's figures: concat ahead by exactly the margin in-sample, by 0.9 point held out.
    assert.equal(chooseRule({ columbia: both(0.777, 0.757), concat: both(0.787, 0.766) }), 'columbia');
    assert.equal(chooseRule({ columbia: both(0.777, 0.75), concat: both(0.777, 0.77) }), 'concat', 'held-out lead of 2 points');
    assert.equal(chooseRule({ columbia: both(0.78, 0.75), concat: fitted(0.70) }), 'columbia', 'in-sample when one rule lacks a held-out figure');
  });
});

describe('held-out accuracy of a rule fit', () => {
  const ent = (e: number, n: number, c: number) => ({ entailment: e, neutral: n, contradiction: c });
  it('folds keep every pair of one claim together, use every fold, and repeat for the same seed', () => {
    const items: LabelledPairs[] = Array.from({ length: 90 }, (_, i) => ({ evidence: [ent(0.5, 0.3, 0.2)], gold: 'SUPPORTS' as const, claim: `claim ${i % 30}` }));
    const f = claimFolds(items, 5, 7);
    assert.deepEqual(claimFolds(items, 5, 7), f);
    for (let i = 0; i < 90; i++) assert.equal(f[i], f[i % 30], 'the same claim, the same fold');
    assert.deepEqual([...new Set(f)].sort(), [0, 1, 2, 3, 4]);
    assert.deepEqual([0, 1, 2, 3, 4].map((k) => f.filter((x) => x === k).length), [18, 18, 18, 18, 18], '6 claims of 3 pairs a fold');
    assert.notDeepEqual(claimFolds(items, 5, 8), f, 'another seed, another assignment');
  });
  it('sees through the optimism of a fit on labels that carry no signal, and not on labels that do', () => {
    const rng = new Rng(5);
    const labels = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const;
    const noise: LabelledPairs[] = Array.from({ length: 150 }, (_, i) => ({ evidence: [ent(rng.next(), rng.next(), rng.next())], gold: labels[rng.int(3)]!, relevance: rng.next(), claim: `c${i}` }));
    const fitNoise = fitRule(noise, 'noise');
    const heldNoise = heldOutAccuracy(noise, (t) => fitRule(t, 'noise'), { folds: 3, repeats: 2, seed: 1 });
    assert.equal(heldNoise.perRepeat.length, 2);
    assert.ok(heldNoise.accuracy < fitNoise.fittedOn.accuracy - 0.05, `held out ${heldNoise.accuracy} vs in-sample ${fitNoise.fittedOn.accuracy}`);
    const signal: LabelledPairs[] = Array.from({ length: 150 }, (_, i) => {
      const g = labels[i % 3]!;
      const j = rng.next() * 0.2;
      const e = g === 'SUPPORTS' ? ent(0.7 + j, 0.2, 0.1) : g === 'REFUTES' ? ent(0.1, 0.2, 0.7 + j) : ent(0.2, 0.6 + j, 0.2);
      return { evidence: [e], gold: g, relevance: g === 'NOT ENOUGH INFO' ? 0.1 * j : 0.5 + j, claim: `c${i}`, shuffled: false };
    });
    const heldSignal = heldOutAccuracy(signal, (t) => fitRule(t, 'signal'), { folds: 3, repeats: 1, seed: 1 });
    assert.ok(heldSignal.accuracy > 0.95, String(heldSignal.accuracy));
    assert.equal(heldSignal.citedAccuracy, heldSignal.accuracy, 'every pair here is a cited one');
  });
  it('fitVerdictCalibration records it per rule and chooses on it', () => {
    const items: LabelledPairs[] = Array.from({ length: 60 }, (_, i) => ({ evidence: [i % 2 ? ent(0.8, 0.1, 0.1) : ent(0.1, 0.1, 0.8)], gold: i % 2 ? ('SUPPORTS' as const) : ('REFUTES' as const), relevance: 0.9, claim: `c${i}` }));
    const cal = fitVerdictCalibration({ columbia: items, concat: items }, 'test', [], { heldOut: { folds: 3, repeats: 1, seed: 2 } });
    assert.ok(cal.rules.columbia!.fittedOn.heldOut!.accuracy > 0.95);
    assert.equal(cal.bestRule, 'columbia', 'a tie keeps the incumbent');
    assert.equal(fitVerdictCalibration({ concat: items }, 'test', [], { heldOut: false }).rules.concat!.fittedOn.heldOut, undefined);
  });
});

describe('reliability', () => {
  it('ECE is 0 for perfectly calibrated bins and the gap otherwise', () => {
    const conf = [0.85, 0.85, 0.85, 0.85, 0.15, 0.15, 0.15, 0.15];
    assert.equal(reliability([0.75, 0.75, 0.75, 0.75], [true, true, true, false]).ece, 0);
    const r = reliability(conf, [true, true, true, true, false, false, false, false]);
    assert.ok(Math.abs(r.ece - 0.15) < 1e-9, String(r.ece));
    assert.equal(r.bins.filter((b) => b.n).length, 2);
  });
});
