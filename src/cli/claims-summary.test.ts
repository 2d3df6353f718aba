import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ClaimsTally, goldLabelOf, summaryLines } from './claims-summary.js';
import { readClaims } from './command-verify.js';

describe('verify --claims summary', () => {
  it('reads a gold label from a label field (any usual spelling) or from SciFact evidence', () => {
    assert.equal(goldLabelOf({ claim: 'x', label: 'SUPPORT' }), 'SUPPORTS');
    assert.equal(goldLabelOf({ claim: 'x', label: 'contradict' }), 'REFUTES');
    assert.equal(goldLabelOf({ claim: 'x', label: 'NEI' }), 'NOT ENOUGH INFO');
    assert.equal(goldLabelOf({ claim: 'x', evidence: { '14717500': [{ sentences: [2], label: 'SUPPORT' }] } }), 'SUPPORTS');
    assert.equal(goldLabelOf({ claim: 'x', evidence: { '1': [{ sentences: [0], label: 'CONTRADICT' }] } }), 'REFUTES');
    assert.equal(goldLabelOf({ claim: 'x', evidence: {} }), 'NOT ENOUGH INFO');
    assert.equal(goldLabelOf({ claim: 'x' }), undefined, 'no gold: SciFact test claims, plain claim files');
    assert.equal(goldLabelOf({ claim: 'x', label: 'maybe' }), undefined);
  });

  it('readClaims carries each line\'s gold label', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-claims-'));
    try {
      const file = join(dir, 'claims.jsonl');
      await writeFile(file, ['{"id": 3, "claim": "A.", "evidence": {"1": [{"sentences": [2], "label": "SUPPORT"}]}}', '{"id": 4, "claim": "B.", "label": "REFUTES"}', '{"id": 5, "claim": "C."}'].join('\n') + '\n');
      const got = [];
      for await (const c of readClaims(file)) got.push(c);
      assert.deepEqual(got.map((c) => c.gold), ['SUPPORTS', 'REFUTES', undefined]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts labels, agreement with the gold labels and throughput', () => {
    const t = new ClaimsTally();
    t.add('SUPPORTS', 'SUPPORTS');
    t.add('SUPPORTS', 'REFUTES');
    t.add('NOT ENOUGH INFO', 'NOT ENOUGH INFO');
    t.add('REFUTES');
    const s = t.summary(2);
    assert.deepEqual(s.labels, { SUPPORTS: 2, REFUTES: 1, 'NOT ENOUGH INFO': 1 });
    assert.equal(s.verified, 4);
    assert.equal(s.claimsPerSecond, 2);
    assert.equal(s.gold?.n, 3);
    assert.equal(s.gold?.agree, 2);
    assert.deepEqual(s.gold?.byGold.REFUTES, { n: 1, agree: 0 });
    // F1: SUPPORTS 2*1/(1+2) = 0.667, REFUTES 0, NEI 1 -> macro 0.556
    assert.ok(Math.abs(s.gold!.macroF1 - (2 / 3 + 0 + 1) / 3) < 1e-9);
    const text = summaryLines(s, 'out.jsonl').join('\n');
    assert.match(text, /verified 4 claims \(0 already in out\.jsonl\) -> out\.jsonl in 2\.0 s \(2\.00 claims\/s\)/);
    assert.match(text, /labels: SUPPORTS 2, REFUTES 1, NOT ENOUGH INFO 1/);
    assert.match(text, /agreement with the gold labels: 2\/3 \(accuracy 0\.667, macro-F1 0\.556\); per gold label: SUPPORTS 1\/1, REFUTES 0\/1, NOT ENOUGH INFO 1\/1/);
    assert.match(text, /1 claims have no gold label/);
  });

  it('a resumed run sums up the whole file: the earlier verdicts count in labels and agreement, not in throughput', () => {
    const t = new ClaimsTally();
    t.addEarlier('SUPPORTS', 'SUPPORTS');
    t.addEarlier('REFUTES', 'SUPPORTS');
    t.addEarlier(undefined, 'REFUTES'); // a stored line without a readable label: skipped, not counted
    t.add('NOT ENOUGH INFO', 'NOT ENOUGH INFO');
    const s = t.summary(1);
    assert.equal(s.verified, 1);
    assert.equal(s.skipped, 3);
    assert.equal(s.claimsPerSecond, 1);
    assert.deepEqual(s.labels, { SUPPORTS: 1, REFUTES: 1, 'NOT ENOUGH INFO': 1 });
    assert.deepEqual({ n: s.gold?.n, agree: s.gold?.agree }, { n: 3, agree: 2 });
    const text = summaryLines(s, 'v.jsonl').join('\n');
    assert.match(text, /verified 1 claims \(3 already in v\.jsonl\)/);
    assert.match(text, /labels \(all 4 claims, this run's and the 3 before\): SUPPORTS 1, REFUTES 1, NOT ENOUGH INFO 1/);
    // A finished file run again: nothing new, the file's own figures (not "SUPPORTS 0, REFUTES 0, ...").
    const again = new ClaimsTally();
    again.addEarlier('SUPPORTS', 'SUPPORTS');
    assert.match(summaryLines(again.summary(0.1), 'v.jsonl').join('\n'), /verified 0 claims \(1 already in v\.jsonl\)[\s\S]*SUPPORTS 1,[\s\S]*agreement with the gold labels: 1\/1/);
  });

  it('says so when the file has no gold labels', () => {
    const t = new ClaimsTally();
    t.add('REFUTES');
    const s = t.summary(0.5);
    assert.equal(s.gold, undefined);
    assert.match(summaryLines(s, 'v.jsonl').join('\n'), /no gold labels in the claims file/);
  });
});
