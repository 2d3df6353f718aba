import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { CONFLICT_WORDS, explicitConflict } from './explicit-conflict.js';

describe('explicit conflict: what the audit needs before calling a source contradicting', () => {
  const reduced = 'Statin use was associated with a 71% reduction in the risk of hip fracture.';
  it('finds a change in the opposite direction, and none when the claim agrees', () => {
    assert.equal(explicitConflict('Statins double the risk of hip fracture in women under 40.', reduced), 'direction');
    assert.equal(explicitConflict('Statins reduce the risk of hip fracture.', reduced), undefined);
  });
  it('finds a negated claim, another value in the same unit, an antonym', () => {
    assert.equal(explicitConflict('Aspirin is not effective against headaches.', 'Aspirin is effective against headaches.'), 'negation');
    assert.equal(explicitConflict('The daily dose was 5 mg.', 'The daily dose was 10 mg.'), 'number');
    assert.equal(explicitConflict('The patient was alive at follow-up.', 'The patient was dead at follow-up.'), 'antonym');
  });
  it('finds none where the evidence differs without denying the claim (the audit sample\'s citation #4)', () => {
    const claim = 'A pooled re-analysis of individual data from 32 studies found that birth length, rather than birth weight, was the strongest independent predictor of risk.';
    const evidence =
      'Birth weight was positively associated with breast cancer risk in studies based on birth records, but not in those based on adult self-reports. CONCLUSIONS This pooled analysis of individual participant data is consistent with birth size, and in particular birth length, being an independent correlate of breast cancer risk in adulthood.';
    assert.equal(explicitConflict(claim, evidence), undefined);
  });
  it('says each kind in words', () => {
    for (const words of Object.values(CONFLICT_WORDS)) assert.match(words, /^it /);
  });
});
