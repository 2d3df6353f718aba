/** Swapped groups (issue 36): figures given to two things crossed; the same comparison made of the other side of a threshold; a comparison the other way round. Real sentences from data/samples/citation-set. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { findingsOf, sourceFindings } from './findings.js';
import { figuresWithNames, swappedComparison, swappedFigures, swappedThresholdGroups } from './swapped-groups.js';

// Malaria prophylaxis #11 and its source (SciFact 18344910).
const SHARES_CLAIM = 'Of these malaria cases, 68% had vivax infection and 32% falciparum malaria.';
const SHARES_SOURCE = 'Of them 82 patients (68%) had falciparum malaria while 39 patients (32%) had vivax infection.';
// Multidrug-resistant tuberculosis #4 and its source (SciFact 5284188).
const AGE_CLAIM = 'Patients older than 35 had twice the odds of multidrug-resistant disease of younger patients.';
const AGE_SOURCE = 'Patients <35 yrs of age have shown a two times higher odds ratio of multidrug-resistant TB than those aged >35 yrs.';

describe('swapped figures', () => {
  it('reads each figure with the thing after it, past brackets, verbs and the people counted', () => {
    assert.deepEqual(figuresWithNames(SHARES_CLAIM).map((f) => [f.value, f.name]), [['68', 'vivax'], ['32', 'falciparum']]);
    assert.deepEqual(figuresWithNames(SHARES_SOURCE).map((f) => [f.value, f.name]), [['68', 'falciparum'], ['32', 'vivax']]);
  });

  it('two figures given to the two things the other way round are decisive', () => {
    const f = swappedFigures(SHARES_CLAIM, SHARES_SOURCE);
    assert.ok(f?.decisive);
    assert.equal(f.message, 'the source says "68% had falciparum" and "32% had vivax"; the claim says "68% had vivax" and "32% falciparum" (the figures are swapped between the two)');
    assert.ok(findingsOf(SHARES_CLAIM, SHARES_SOURCE).some((x) => x.decisive && x.kind === 'direction'));
  });

  it('the same figures given to the same things, or one figure alone, are no finding', () => {
    assert.equal(swappedFigures('Of these malaria cases, 68% had falciparum malaria and 32% vivax infection.', SHARES_SOURCE), undefined);
    assert.equal(swappedFigures('Of these malaria cases, 68% had vivax infection.', SHARES_SOURCE), undefined);
    assert.deepEqual(findingsOf('Of these malaria cases, 68% had falciparum malaria and 32% vivax infection.', SHARES_SOURCE).filter((x) => x.decisive), []);
  });
});

describe('swapped threshold groups', () => {
  it('the same comparison made of the group on the other side of the same threshold is decisive', () => {
    const f = swappedThresholdGroups(AGE_CLAIM, AGE_SOURCE);
    assert.ok(f?.decisive);
    assert.match(f.message, /<35.*older than 35|groups are swapped/);
    assert.ok(findingsOf(AGE_CLAIM, AGE_SOURCE).some((x) => x.decisive && x.kind === 'direction'));
  });

  it('the same fact said from the other side (the opposite comparison), or the same group, is no finding', () => {
    assert.equal(swappedThresholdGroups('Patients older than 35 had half the odds of multidrug-resistant disease of younger patients.', AGE_SOURCE), undefined);
    assert.equal(swappedThresholdGroups('Patients younger than 35 had twice the odds of multidrug-resistant disease of older patients.', AGE_SOURCE), undefined);
    assert.equal(swappedThresholdGroups('Patients older than 40 had twice the odds of multidrug-resistant disease.', AGE_SOURCE), undefined);
  });

  it('is found across the whole cited source, as the audit reads it', () => {
    const source = [
      'Multidrug-resistant (MDR)-TB was found in 35.3% (95% CI 27.7-42.8) of new patients and 76.5% (95% CI 66.1-86.8) of those previously treated.',
      AGE_SOURCE,
      'The findings of this survey in Minsk city are alarming and represent the highest proportions of MDR-TB ever recorded in the world.',
    ];
    assert.ok(sourceFindings(AGE_CLAIM, source).some((x) => x.decisive && /swapped/.test(x.message)));
  });
});

// Malaria prophylaxis #13 and its source (SciFact 38410121).
const COMPLIANCE_CLAIM = 'Compliance was better among chloroquine plus proguanil users than among mefloquine users.';
const COMPLIANCE_SOURCE = 'Compliance was significantly better in mefloquine users with 83.3% of short term travelers compared to 76.3% in chloroquine plus proguanil users.';

describe('a comparison the other way round', () => {
  it('the same comparative with the two groups swapped is decisive', () => {
    const f = swappedComparison(COMPLIANCE_CLAIM, COMPLIANCE_SOURCE);
    assert.ok(f?.decisive);
    assert.match(f.message, /other way round/);
    assert.ok(sourceFindings(COMPLIANCE_CLAIM, ['Overall mefloquine is tolerated at least as well as chloroquine plus proguanil.', COMPLIANCE_SOURCE]).some((x) => x.decisive && x.kind === 'direction'));
  });

  it('the opposite comparative with the same groups is decisive; the opposite comparative with the groups swapped says the same', () => {
    assert.ok(swappedComparison('Compliance was worse among mefloquine users than among chloroquine plus proguanil users.', COMPLIANCE_SOURCE)?.decisive);
    assert.equal(swappedComparison('Compliance was worse among chloroquine plus proguanil users than among mefloquine users.', COMPLIANCE_SOURCE), undefined);
    assert.equal(swappedComparison('Compliance was better among mefloquine users than among chloroquine plus proguanil users.', COMPLIANCE_SOURCE), undefined);
  });

  it('another measure, or groups the source does not name, are no finding', () => {
    assert.equal(swappedComparison('Tolerance was better among chloroquine plus proguanil users than among mefloquine users.', COMPLIANCE_SOURCE), undefined);
    assert.equal(swappedComparison('Compliance was better among atovaquone users than among doxycycline users.', COMPLIANCE_SOURCE), undefined);
  });
});
