import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  evidenceMacroPrecision,
  evidenceMacroRecall,
  feverScore,
  type FeverGold,
  type FeverPrediction,
  type GoldSentence,
  type PredictedSentence,
  type ScoredInstance,
} from './fever-score.js';

const g = (page: string, line: number): GoldSentence => [1, 1, page, line];
const inst = (
  label: string,
  evidence: GoldSentence[][],
  predicted_label: string,
  predicted_evidence: PredictedSentence[],
): ScoredInstance => ({ label, evidence, predicted_label, predicted_evidence });
const score = (preds: FeverPrediction[], max: number | null = 5) => {
  const r = feverScore(preds, undefined, max);
  return [r.strict_score, r.acc_score, r.precision, r.recall, r.f1];
};

test('perfect prediction', () => {
  assert.deepEqual(score([inst('SUPPORTS', [[g('A', 0)]], 'SUPPORTS', [['A', 0]])]), [1, 1, 1, 1, 1]);
});

test('wrong label: no strict credit, evidence still scored', () => {
  assert.deepEqual(score([inst('SUPPORTS', [[g('A', 0)]], 'REFUTES', [['A', 0]])]), [0, 0, 1, 1, 1]);
});

test('right label, one sentence of a 2-sentence group missing', () => {
  // precision: A0 is a gold sentence -> 1/1; recall: no complete group -> 0; F1 = 0
  assert.deepEqual(score([inst('REFUTES', [[g('A', 0), g('B', 1)]], 'REFUTES', [['A', 0]])]), [0, 1, 1, 0, 0]);
});

test('NEI: correct on label alone, not in precision/recall denominators', () => {
  const nei = inst('NOT ENOUGH INFO', [[[108548, null, null, null]]], 'NOT ENOUGH INFO', [['Z', 3]]);
  // alone: no verifiable instance -> precision 1.0, recall 0.0 (official defaults), F1 0
  assert.deepEqual(score([nei]), [1, 1, 1, 0, 0]);
  const perfect = inst('SUPPORTS', [[g('A', 0)]], 'SUPPORTS', [['A', 0]]);
  const r = feverScore([nei, perfect]);
  assert.deepEqual([r.strict_score, r.acc_score, r.precision, r.recall, r.f1, r.nVerifiable], [1, 1, 1, 1, 1, 1]);
  // predicting NEI for a verifiable claim: label wrong, precision over its (correct) evidence still counts
  assert.deepEqual(score([inst('SUPPORTS', [[g('A', 0)]], 'NOT ENOUGH INFO', [])]), [0, 0, 1, 0, 0]);
});

test('precision with extra sentences; alternative groups', () => {
  // two alternative groups; 2 of 4 predictions are gold sentences
  const i = inst('SUPPORTS', [[g('A', 0)], [g('B', 2)]], 'SUPPORTS', [['A', 0], ['X', 1], ['B', 2], ['Y', 3]]);
  assert.deepEqual(score([i]), [1, 1, 0.5, 1, 2 / 3]);
  // macro: instance precisions 0.5 and 1 -> 0.75
  const j = inst('SUPPORTS', [[g('C', 0)]], 'SUPPORTS', [['C', 0]]);
  assert.equal(feverScore([i, j]).precision, 0.75);
  // duplicates are counted each time, like the official loop
  assert.deepEqual(evidenceMacroPrecision(inst('SUPPORTS', [[g('A', 0)]], 'SUPPORTS', [['A', 0], ['A', 0], ['X', 0]])), [2 / 3, 1]);
});

test('more than 5 predicted sentences: only the first 5 count', () => {
  const preds: PredictedSentence[] = [['X', 0], ['X', 1], ['X', 2], ['X', 3], ['X', 4], ['A', 0]];
  const i = inst('SUPPORTS', [[g('A', 0)]], 'SUPPORTS', preds);
  assert.deepEqual(score([i]), [0, 1, 0, 0, 0]); // F1 with P = R = 0 is 0 (Python would raise)
  assert.deepEqual(score([i], null), [1, 1, 1 / 6, 1, (2 * (1 / 6)) / (1 / 6 + 1)]);
  // a group split across the cut fails
  const split = inst('SUPPORTS', [[g('A', 0), g('B', 0)]], 'SUPPORTS', [['A', 0], ['A', 0], ['A', 0], ['A', 0], ['A', 0], ['B', 0]]);
  assert.deepEqual(score([split]).slice(0, 2), [0, 1]);
});

test('no predicted evidence for a verifiable claim: precision 1.0, recall 0', () => {
  assert.deepEqual(score([inst('REFUTES', [[g('A', 0)]], 'REFUTES', [])]), [0, 1, 1, 0, 0]);
});

test('edge cases of the official code', () => {
  // labels compared case-insensitively
  assert.equal(feverScore([inst('SUPPORTS', [[g('A', 0)]], 'supports', [['A', 0]])]).strict_score, 1);
  // a null sentence can never be matched; another complete group still counts
  const withNull = inst('SUPPORTS', [[[1, null, null, null]], [g('A', 0)]], 'SUPPORTS', [['A', 0]]);
  assert.deepEqual(score([withNull]), [1, 1, 1, 1, 1]);
  // verifiable gold with an empty evidence list: recall 1, but never strictly correct
  assert.deepEqual(score([inst('SUPPORTS', [], 'SUPPORTS', [['A', 0]])]), [0, 1, 0, 1, 0]);
  assert.throws(() => feverScore([]), RangeError);
  assert.throws(() => feverScore([{ predicted_label: 'SUPPORTS', predicted_evidence: [['A', 0.5]] } as never], [
    { label: 'SUPPORTS', evidence: [] },
  ]), TypeError);
});

test('README examples: strict 0.5, accuracy 1.0 (also in blind mode)', () => {
  const evidence: GoldSentence[][] = [[[null, null, 'page1', 1], [null, null, 'page2', 2]]];
  const p1: PredictedSentence[] = [['page1', 1]];
  const p2: PredictedSentence[] = [['page1', 1], ['page2', 2], ['page3', 3]];
  const r = feverScore([inst('refutes', evidence, 'refutes', p1), inst('refutes', evidence, 'refutes', p2)]);
  assert.equal(r.strict_score, 0.5);
  assert.equal(r.acc_score, 1);
  const actual: FeverGold[] = [{ label: 'refutes', evidence }, { label: 'refutes', evidence }];
  const blind = feverScore(
    [{ predicted_label: 'refutes', predicted_evidence: p1 }, { predicted_label: 'refutes', predicted_evidence: p2 }],
    actual,
  );
  assert.deepEqual(blind, r);
  assert.throws(() => feverScore([{ predicted_label: 'refutes', predicted_evidence: p1 }]), /actual data must be provided/);
  assert.throws(() => feverScore([{ predicted_label: 'refutes', predicted_evidence: p1 }], [...actual]), /length must match/);
});

test('official test_max_evidence.py cases', () => {
  const gold01: GoldSentence[][] = [[[null, null, 'page', 0], [null, null, 'page', 1]]];
  const gold02: GoldSentence[][] = [[[null, null, 'page', 0], [null, null, 'page', 2]]];
  const pred: PredictedSentence[] = [['page', 0], ['page', 1]];
  const a = { label: 'supports', predicted_label: 'supports', evidence: gold01, predicted_evidence: pred };
  const b = { ...a, evidence: gold02 };
  assert.equal(evidenceMacroRecall(a, 1)[0], 0);
  assert.equal(evidenceMacroRecall(a, 2)[0], 1);
  assert.equal(evidenceMacroPrecision(b, 1)[0], 1);
  assert.equal(evidenceMacroPrecision(b, 2)[0], 0.5);
  assert.equal(feverScore([a], undefined, 2).strict_score, 1);
  assert.equal(feverScore([a], undefined, 1).strict_score, 0);
  assert.equal(feverScore([b], undefined, 2).precision, 0.5);
  assert.equal(feverScore([b], undefined, 1).precision, 1);
  assert.equal(feverScore([a], undefined, 2).recall, 1);
  assert.equal(feverScore([a], undefined, 1).recall, 0);
});

// Cross-check against the official Python code on the whole paper_dev set. The expected numbers were produced by
// running sheffieldnlp/fever-scorer's scorer.py on predictions from this same deterministic generator.
const PAPER_DEV = '/work/shared/data/fever/paper_dev.jsonl';
test('matches the official Python scorer on paper_dev', { skip: !existsSync(PAPER_DEV) }, async () => {
  const LABELS = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'];
  const gold = (await readFile(PAPER_DEV, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FeverGold);
  const preds: FeverPrediction[] = gold.map((gd, i) => {
    const label = i % 4 !== 0 ? gd.label : LABELS[(LABELS.indexOf(gd.label) + 1) % 3];
    let sents: PredictedSentence[] = [];
    for (const grp of gd.evidence) {
      for (const e of grp) {
        if (e[2] !== null && !sents.some(([p, l]) => p === e[2] && l === e[3])) sents.push([e[2], e[3] as number]);
      }
    }
    if (i % 5 === 0 && sents.length) sents = sents.slice(0, -1);
    if (i % 3 === 0) sents = [['Distractor', i % 7], ...sents];
    if (i % 2 === 0) sents = [...sents, ['X', 0]];
    if (i % 11 === 0) sents = [...sents, ...sents];
    return { predicted_label: i % 6 === 0 ? label.toLowerCase() : label, predicted_evidence: sents };
  });
  const expected: [number | null, number[]][] = [
    [5, [0.6658665866586658, 0.7499749974997499, 0.6341109110911133, 0.8312331233123312, 0.7194132992356012]],
    [null, [0.666966696669667, 0.7499749974997499, 0.631733479895188, 0.8331833183318332, 0.7186070877437227]],
    [1, [0.5030503050305031, 0.7499749974997499, 0.6182118211821183, 0.5057005700570057, 0.5563246260557717]],
  ];
  for (const [max, want] of expected) {
    const r = feverScore(preds, gold, max);
    const got = [r.strict_score, r.acc_score, r.precision, r.recall, r.f1];
    got.forEach((v, j) => assert.ok(Math.abs(v - want[j]) < 1e-12, `max=${max} [${j}] ${v} != ${want[j]}`));
  }
});
