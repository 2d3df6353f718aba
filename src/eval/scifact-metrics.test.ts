import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { scifactMetrics, type SciFactGoldClaim, type SciFactPrediction } from './scifact-metrics.js';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

// The worked example of allenai/scifact doc/evaluation.md (claim 52).
const gold52: SciFactGoldClaim = {
  id: 52,
  claim: 'ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors.',
  evidence: {
    '11': [
      { sentences: [0, 1], label: 'SUPPORT' },
      { sentences: [11], label: 'SUPPORT' },
    ],
    '15': [{ sentences: [4], label: 'SUPPORT' }],
  },
  cited_doc_ids: [11, 15],
};
const pred52: SciFactPrediction = {
  id: 52,
  evidence: {
    '11': { sentences: [1, 11, 13], label: 'SUPPORT' },
    '16': { sentences: [18, 20], label: 'CONTRADICT' },
  },
};

test('official worked example: abstract 1/2, sentence P 1/5 R 1/4 F1 2/9', () => {
  const m = scifactMetrics([pred52], [gold52]);
  assert.deepEqual(m.abstract_label_only, { precision: 0.5, recall: 0.5, f1: 0.5 });
  assert.deepEqual(m.abstract_rationalized, { precision: 0.5, recall: 0.5, f1: 0.5 });
  close(m.sentence_selection.precision, 1 / 5);
  close(m.sentence_selection.recall, 1 / 4);
  close(m.sentence_selection.f1, 2 / 9);
  assert.deepEqual(m.sentence_label, m.sentence_selection);
  assert.deepEqual(m.counts.sentence, { retrieved: 5, relevant: 4, correct_selection: 1, correct_label: 1 });
});

test('wrong label: selection-only still credited, label metrics are not', () => {
  const p: SciFactPrediction = { id: 52, evidence: { '11': { sentences: [0, 1, 11], label: 'CONTRADICT' } } };
  const m = scifactMetrics([p], [gold52]);
  assert.equal(m.counts.abstract.correct_label_only, 0);
  assert.equal(m.counts.abstract.correct_rationalized, 0);
  assert.equal(m.counts.sentence.correct_selection, 3);
  assert.equal(m.counts.sentence.correct_label, 0);
  close(m.sentence_selection.precision, 1);
  close(m.sentence_selection.recall, 3 / 4);
  assert.equal(m.sentence_label.f1, 0);
});

test('abstract level reads only the first 3 sentences; sentence level reads all', () => {
  const gold: SciFactGoldClaim = { id: 1, evidence: { '7': [{ sentences: [5], label: 'SUPPORT' }] } };
  const p: SciFactPrediction = { id: 1, evidence: { '7': { sentences: [0, 1, 2, 5], label: 'SUPPORT' } } };
  const m = scifactMetrics([p], [gold]);
  assert.deepEqual(m.counts.abstract, { retrieved: 1, relevant: 1, correct_label_only: 1, correct_rationalized: 0 });
  assert.deepEqual(m.counts.sentence, { retrieved: 4, relevant: 1, correct_selection: 1, correct_label: 1 });
});

test('partial rationale set earns nothing; duplicates count as retrieved but are credited once', () => {
  const gold: SciFactGoldClaim = { id: 1, evidence: { '7': [{ sentences: [2, 5], label: 'CONTRADICT' }] } };
  const partial = scifactMetrics([{ id: 1, evidence: { '7': { sentences: [2], label: 'CONTRADICT' } } }], [gold]);
  assert.equal(partial.counts.abstract.correct_rationalized, 0);
  assert.equal(partial.counts.abstract.correct_label_only, 1);
  assert.equal(partial.counts.sentence.correct_selection, 0);
  const dup = scifactMetrics([{ id: 1, evidence: { '7': { sentences: [2, 5, 2], label: 'CONTRADICT' } } }], [gold]);
  assert.deepEqual(dup.counts.sentence, { retrieved: 3, relevant: 2, correct_selection: 2, correct_label: 2 });
  assert.equal(dup.counts.abstract.correct_rationalized, 1);
});

test('NEI gold (no evidence) adds nothing relevant; its predictions are false positives', () => {
  const nei: SciFactGoldClaim = { id: 1, evidence: {}, cited_doc_ids: [31715818] };
  const p: SciFactPrediction = { id: 1, evidence: { '31715818': { sentences: [0], label: 'SUPPORT' } } };
  const m = scifactMetrics([p, { id: 52, evidence: {} }], [nei, gold52]);
  assert.deepEqual(m.counts.abstract, { retrieved: 1, relevant: 2, correct_label_only: 0, correct_rationalized: 0 });
  assert.deepEqual(m.abstract_label_only, { precision: 0, recall: 0, f1: 0 }); // Python would divide by zero in F1
  // predicted NOT_ENOUGH_INFO docs are skipped entirely
  const skip = scifactMetrics([{ id: 1, evidence: { '5': { sentences: [0], label: 'NOT_ENOUGH_INFO' } } }], [nei]);
  assert.equal(skip.counts.abstract.retrieved, 0);
  assert.equal(skip.counts.sentence.retrieved, 0);
});

test('ids compare as integers; missing / unknown / duplicate predictions', () => {
  const p = { id: '52', evidence: { '011': { sentences: [11], label: 'SUPPORT' as const } } };
  assert.equal(scifactMetrics([p], [gold52]).counts.abstract.correct_rationalized, 1);
  const other: SciFactGoldClaim = { id: 3, evidence: { '1': [{ sentences: [0], label: 'SUPPORT' }] } };
  assert.throws(() => scifactMetrics([pred52], [gold52, other]), /no prediction for claim 3/);
  assert.equal(scifactMetrics([pred52], [gold52, other], { missing: 'ignore' }).counts.abstract.relevant, 2);
  assert.equal(scifactMetrics([pred52], [gold52, other], { missing: 'empty' }).counts.abstract.relevant, 3);
  assert.throws(() => scifactMetrics([{ id: 99, evidence: {} }], [gold52]), /not in the gold/);
  assert.throws(() => scifactMetrics([pred52, pred52], [gold52]), /duplicate prediction/);
  const mixed: SciFactGoldClaim = {
    id: 4,
    evidence: { '1': [{ sentences: [0], label: 'SUPPORT' }, { sentences: [1], label: 'CONTRADICT' }] },
  };
  assert.throws(() => scifactMetrics([{ id: 4, evidence: {} }], [mixed]), /one label/);
});

// Cross-check against a Python port of the official metrics.py on claims_dev (numbers computed with it on
// predictions from this same deterministic generator).
const DEV = '/work/shared/data/scifact/claims_dev.jsonl';
test('matches the official metrics on claims_dev', { skip: !existsSync(DEV) }, async () => {
  const claims = (await readFile(DEV, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Required<SciFactGoldClaim>);
  const preds: SciFactPrediction[] = claims.map((c, i) => {
    const ev: SciFactPrediction['evidence'] = {};
    const gdocs = Object.keys(c.evidence).sort((x, y) => Number(x) - Number(y));
    gdocs.forEach((d, j) => {
      let label = c.evidence[d][0].label;
      if ((i + j) % 4 === 0) label = label === 'SUPPORT' ? 'CONTRADICT' : 'SUPPORT';
      let sents = c.evidence[d].flatMap((r) => r.sentences);
      if (i % 3 === 0) sents = [20, ...sents];
      if (i % 5 === 0 && sents.length) sents = sents.slice(0, -1);
      if (i % 7 === 0 && sents.length) sents = [...sents, sents[0]];
      ev[d] = { label, sentences: sents };
    });
    for (const d of [...c.cited_doc_ids].map(Number).sort((x, y) => x - y)) {
      if (!(String(d) in c.evidence) && i % 2 === 0) ev[String(d)] = { label: 'SUPPORT', sentences: [0, 1] };
    }
    if (i % 9 === 0) ev['999999'] = { label: 'CONTRADICT', sentences: [3] };
    return { id: c.id, evidence: ev };
  });
  const want = {
    abstract_label_only: { precision: 0.5145631067961165, recall: 0.7607655502392344, f1: 0.6138996138996139 },
    abstract_rationalized: { precision: 0.45307443365695793, recall: 0.6698564593301436, f1: 0.5405405405405406 },
    sentence_selection: { precision: 0.552901023890785, recall: 0.8852459016393442, f1: 0.680672268907563 },
    sentence_label: { precision: 0.4300341296928328, recall: 0.6885245901639344, f1: 0.5294117647058824 },
  };
  const m = scifactMetrics(preds, claims);
  for (const [k, v] of Object.entries(want)) {
    const got = m[k as keyof typeof want];
    close(got.precision, v.precision);
    close(got.recall, v.recall);
    close(got.f1, v.f1);
  }
});
