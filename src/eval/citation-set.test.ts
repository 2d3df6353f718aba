import assert from 'node:assert/strict';
import { test } from 'node:test';
import { separationOfSupport, type ScoredRow } from './citation-set.js';

const row = (citation: number, label: ScoredRow['label'], kind: string, band: string, probability?: number): ScoredRow => ({ citation, label, kind, band, ...(probability !== undefined ? { probability } : {}), tag: false, stated: false, right: false });

test('separation of P(supports): supported against contradicted (contradiction + direction), changed-number and wrong-source, by hand', () => {
  const rows = [
    row(1, 'supported', 'supported', 'supported', 0.9),
    row(2, 'supported', 'supported', 'supported', 0.5),
    row(3, 'not_supported', 'contradiction', 'supported', 0.7), // beats supported 0.5, loses to 0.9
    row(4, 'not_supported', 'direction', 'not-supported', 0.1),
    row(5, 'not_supported', 'number', 'supported', 0.95), // beats both supported
    row(6, 'not_supported', 'wrong-page', 'not-supported', 0.2),
    row(7, 'partially_supported', 'partial', 'supported', 0.99), // partial counts in no comparison
    row(8, 'not_supported', 'number', 'could-not-check'), // no probability: left out of the AUC, still a not-supported citation
  ];
  const s = separationOfSupport(rows);
  assert.deepEqual(s.vsContradicted, { auc: 3 / 4, supported: 2, other: 2 });
  assert.deepEqual(s.vsChangedNumber, { auc: 0, supported: 2, other: 1 });
  assert.deepEqual(s.vsWrongSource, { auc: 1, supported: 2, other: 1 });
  assert.equal(s.unscored, 1);
  assert.equal(s.notSupported, 5);
  assert.equal(s.notSupportedBandedSupported, 2);
  assert.equal(s.shareNotSupportedBandedSupported, 2 / 5);
});

test('no AUC when a group is missing (no supported citation scored)', () => {
  const s = separationOfSupport([row(1, 'not_supported', 'number', 'not-supported', 0.1)], 'support');
  assert.equal(s.vsChangedNumber.auc, undefined);
  assert.equal(s.unscored, 1);
});
