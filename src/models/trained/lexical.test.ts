import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, buildIdf, lexicalFeatures, LEXICAL_DIM, LEXICAL_FEATURE_NAMES, stem, tokenize, type IdfTable } from './lexical.js';

const IDF: IdfTable = { documents: 10, idf: {}, unseen: 3 };

function features(premise: string, hypothesis: string, idf = IDF, retrieval = 0): Record<string, number> {
  const out = new Float32Array(LEXICAL_DIM);
  lexicalFeatures(analyse(premise), analyse(hypothesis), idf, out, 0, retrieval);
  return Object.fromEntries(LEXICAL_FEATURE_NAMES.map((n, i) => [n, out[i]]));
}

test('number mismatch: SNLI "Two women" vs "Three women" (contradiction)', () => {
  const f = features('Two women having drinks and smoking cigarettes at the bar .', 'Three women are at a bar .');
  assert.ok(f.number_mismatch > 0);
  assert.equal(f.hyp_has_numbers, 1);
  const same = features('Two women having drinks and smoking cigarettes at the bar .', 'Two women are at a bar .');
  assert.equal(same.number_mismatch, 0);
});

test('numbers and years: SciFact claim 9 against its rationale sentence', () => {
  const rationale =
    'Policies requiring discontinuation of methadone in 32% of all programs contradict the evidence base for efficacy of long-term replacement therapies and potentially result in relapse of previously stable patients.';
  const claim = '32% of liver transplantation programs required patients to discontinue methadone treatment in 2001.';
  const f = features(rationale, claim);
  // "32" is found; the year 2001 is not in the sentence: one of two numbers missing.
  assert.ok(Math.abs(f.number_mismatch - 1 / 3) < 1e-6);
  assert.equal(features(rationale, '32% of programs required discontinuation of methadone.').number_mismatch, 0);
  assert.ok(features('The cohort enrolled 1,000 patients.', 'The cohort had 1000 patients.').number_mismatch === 0);
});

test('negation present on one side only: SNLI "People not standing in line"', () => {
  const f = features('People standing in line of a beer and curry line .', 'People not standing in line');
  assert.equal(f.negation_only_hyp, 1);
  assert.equal(f.negation_only_prem, 0);
  const g = features('A man is sitting in on the side of the street with brass pots .', "a man doesn't have brass pots");
  assert.equal(g.negation_only_hyp, 1);
  const both = features('He did not go.', 'He never went.');
  assert.equal(both.negation_only_hyp + both.negation_only_prem, 0);
});

test('direction cues: "reduces" vs "increases" flips, and "lack" counts as a downward cue', () => {
  const f = features('Treatment with metformin reduced tumour growth in mice.', 'Metformin increases tumour growth.');
  assert.equal(f.direction_flip, 1);
  assert.equal(f.down_mismatch, 1);
  assert.equal(f.up_mismatch, 1);
  assert.equal(features('Metformin increased tumour growth.', 'Metformin increases tumour growth.').direction_flip, 0);
  assert.equal(features('The biomaterials showed inductive properties.', '0-dimensional biomaterials lack inductive properties.').down_mismatch, 1);
});

test('overlap features: coverage, IDF weighting, entities', () => {
  const idf = buildIdf(['the cat sat on the mat', 'the dog sat', 'a cat and a dog', 'the dog ran'], 1);
  const f = features('The cat sat on the mat.', 'The cat sat.', idf);
  assert.equal(f.hyp_coverage, 1);
  assert.equal(f.idf_coverage, 1);
  const g = features('The cat sat on the mat.', 'The dog sat.', idf);
  assert.equal(g.hyp_coverage, 0.5);
  assert.ok(g.idf_coverage < 1 && g.idf_coverage > 0);
  const e = features('Pope Benedict XVI was installed in Rome.', 'Benedict XVI leads the Church.');
  assert.equal(e.hyp_has_entities, 1);
  assert.ok(e.entity_coverage > 0 && e.entity_coverage < 1); // Benedict, XVI found; Church not
  assert.equal(features('a', 'b', IDF, 2.5).retrieval, 2.5);
});

test('tokenizer and stemmer details', () => {
  assert.deepEqual(tokenize("The drug didn't work, Smith's 2.5 mg dose"), ['The', 'drug', 'did', "n't", 'work', 'Smith', '2.5', 'mg', 'dose']);
  assert.equal(stem('increases'), stem('increased'));
  assert.equal(stem('increasing'), stem('increase'));
  assert.equal(stem('studies'), 'study');
  const a = analyse('IL-6 and mTOR levels');
  assert.ok(a.entities.has('il-6') && a.entities.has('mtor'));
  assert.ok(a.contentSet.has('il') && a.contentSet.has('6'));
});

test('IDF table is deterministic and independent of input order', () => {
  const texts = ['alpha beta', 'beta gamma', 'gamma alpha', 'alpha delta'];
  assert.equal(JSON.stringify(buildIdf(texts)), JSON.stringify(buildIdf([...texts].reverse())));
  const t = buildIdf(texts);
  assert.ok(t.idf.alpha < t.idf.beta);
  assert.equal(t.idf.delta, undefined); // df 1 < minDf 2: falls back to `unseen`
});

test('words named like Object.prototype members are unseen words, not functions (finite features)', () => {
  const f = features('The bridge was built in 1932 by a local firm.', 'The constructor valueOf toString of the bridge was a local firm.');
  for (const [name, v] of Object.entries(f)) assert.ok(Number.isFinite(v), `${name} = ${v}`);
  // Against the same claim with ordinary unseen words, the IDF-weighted features agree exactly.
  const plain = features('The bridge was built in 1932 by a local firm.', 'The carpenter mason painter of the bridge was a local firm.');
  assert.equal(f.idf_coverage, plain.idf_coverage);
  assert.equal(f.max_unmatched_idf, plain.max_unmatched_idf);
});
