/** Findings read from phrasing (issue 36): swapped contrasts, "no effect" against an effect, decimal shifts, figures after dashes; one case per form. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { findingsOf, sourceFindings } from './findings.js';
import { contrastsOf, noEffectAgainstEffect, noEffectCover, sameContrast, swappedContrast } from './contrast.js';
import { statedQuantities } from './quantities.js';

const decisive = (claim: string, evidence: string) => findingsOf(claim, evidence).filter((f) => f.decisive);

describe('findings from phrasing', () => {
  it('swapped contrast: "X but not Y" against "Y, but not X" is decisive', () => {
    const claim = 'A review found the association with birthweight for postmenopausal but not for premenopausal breast cancer.';
    const evidence = 'The majority of studies identified a positive link between birthweight and premenopausal, but not postmenopausal, breast cancer.';
    assert.ok(swappedContrast(claim, evidence));
    assert.equal(decisive(claim, evidence)[0]?.kind, 'direction');
    assert.match(decisive(claim, evidence)[0]!.message, /swapped/);
  });

  it('the same contrast ("X, not Y" / "X rather than Y") negates nothing', () => {
    const claim = 'Birth length, not birth weight, was the strongest independent predictor of risk.';
    const evidence = 'Simultaneous adjustment showed that length, rather than weight, was the strongest independent predictor of risk.';
    assert.deepEqual(contrastsOf(claim).map((c) => c.x), ['length']);
    assert.ok(sameContrast(claim, evidence));
    assert.equal(swappedContrast(claim, evidence), undefined);
    assert.deepEqual(findingsOf(claim, evidence).filter((f) => f.kind === 'negation'), []);
  });

  it('"instead of" and "but not" are contrasts too', () => {
    assert.deepEqual(contrastsOf('They chose surgery instead of radiotherapy.').map((c) => [c.x, c.y[0]]), [['surgery', 'radiotherapy']]);
    assert.ok(swappedContrast('Levels rose in women but not in men.', 'Levels rose in men but not in women.'));
  });

  it('no effect against an effect: "no association was detected between X and Y" against "X reduced Y"', () => {
    const f = noEffectAgainstEffect('The same study found that bariatric surgery reduced the incidence of cancer.', 'No association was detected between bariatric surgery and fractures, cancer, or stroke.');
    assert.ok(f?.decisive);
    assert.match(f!.message, /no effect against an effect/);
    // "had no unfavorable effect on", with a hyphenated word of the claim
    assert.ok(noEffectAgainstEffect('Low-level fluoroquinolone resistance worsened the outcome of treatment.', 'Low-level fluoroquinolone resistance had no unfavorable effect on treatment outcome.'));
    // a claim that itself states no effect agrees
    assert.equal(noEffectAgainstEffect('Bariatric surgery was not associated with cancer.', 'No association was detected between bariatric surgery and fractures, cancer, or stroke.'), undefined);
    // about other things: no finding
    assert.equal(noEffectAgainstEffect('Statins reduced the incidence of stroke in older men.', 'No association was detected between bariatric surgery and fractures.'), undefined);
  });

  it('no effect stated in parts across a source counts once', () => {
    const claim = 'The risks associated with low-penetrance susceptibility polymorphisms vary strongly with the use of hormone replacement therapy.';
    const sentences = [
      'Risks of breast cancer associated with low-penetrance susceptibility polymorphisms do not vary significantly with these ten established environmental risk factors.',
      'There was little evidence that the genotypic relative risks were affected by use of hormone replacement therapy.',
    ];
    assert.ok(noEffectCover(claim, sentences)?.decisive);
    assert.ok(sourceFindings(claim, sentences).some((f) => f.decisive));
  });

  it('a decimal point moved after an em dash: 7% against "population—0.7%"', () => {
    const claim = 'In that population the rare CHEK2 1100delC mutation was carried by 7% of the women with breast cancer.';
    const evidence = 'The 1100delC mutation was rare in our Swedish population—0.7% in cases and 0.4% in controls.';
    assert.deepEqual(statedQuantities(evidence).filter((q) => q.kind === 'percent').map((q) => q.value), [0.7, 0.4]);
    const d = decisive(claim, evidence);
    assert.equal(d[0]?.kind, 'quantity');
    assert.match(d[0]!.message, /0\.7 percent, the claim says 7 percent/);
    // the same figure is no finding
    assert.deepEqual(decisive(claim.replace('7%', '0.7%'), evidence), []);
  });

  it('figures in other formats are read: per cent, en-dash ranges, one in five, n-fold, ratios', () => {
    assert.deepEqual(statedQuantities('84.4 per cent had a favourable outcome').map((q) => [q.kind, q.value]), [['percent', 84.4]]);
    assert.deepEqual(statedQuantities('a protective efficacy of 97% (95% CI 82–99%)').map((q) => q.value).slice(0, 1), [97]);
    assert.deepEqual(statedQuantities('about one in five required a change').map((q) => [q.kind, q.value]), [['percent', 20]]);
    assert.deepEqual(statedQuantities('a threefold higher risk').map((q) => [q.kind, q.value]), [['fold', 3]]);
    assert.deepEqual(statedQuantities('(HR 3.9; 95% CI 2.7-5.5)').map((q) => q.kind)[0], 'ratio');
    assert.equal(decisive('Smear-negative patients had the highest death rates (HR 1.9).', 'Smear-negative patients had the highest death rates (HR 3.9; 95% CI 2.7-5.5 compared to smear-positive patients).')[0]?.kind, 'quantity');
  });
});

describe('negation through the object', () => {
  it('"showed no significant difference" agrees with "did not show any significant difference"', () => {
    const claim = 'Subgroup analyses by HIV prevalence or length of treatment showed no significant difference between groups.';
    const evidence = 'Subgroup analyses based on each characteristic (human immunodeficiency virus prevalence, and length of treatment) did not show any significant difference between groups.';
    assert.deepEqual(findingsOf(claim, evidence).filter((f) => f.decisive), []);
  });
});

describe('figures in words, brackets and dashes (issue 36)', () => {
  it('fractions in words are percentages: "a third", "half of", "three quarters", "two-thirds"', () => {
    // (the "twelve months" there is a count: numbers in words, forms.test.ts)
    assert.deepEqual(statedQuantities('Only a third of the patients completed treatment, and three quarters within twelve months.').filter((q) => q.kind === 'percent').map((q) => Math.round(q.value)), [33, 75]);
    assert.deepEqual(statedQuantities('only half of the patients; over two-thirds required a change').map((q) => Math.round(q.value)), [50, 67]);
    assert.deepEqual(statedQuantities('a third dose was given'), []);
    assert.equal(decisive('Only a third of the patients completed treatment within nine months.', 'Only half of the patients completed treatment within 9 months.')[0]?.kind, 'quantity');
  });

  it('a figure opening a parenthesis is about the words before it; a confidence level is no figure', () => {
    const q = statedQuantities('ototoxicity (14.6%), and psychiatric disorders (13.2%)');
    assert.ok(q[0]!.about.includes('ototoxicity'));
    assert.deepEqual(statedQuantities('RR 5.06 (95% CI 2.71-9.45)').filter((x) => x.kind === 'percent'), []);
  });

  it('n-fold in one word ("twentyfold") and a range with a unicode minus', () => {
    assert.deepEqual(statedQuantities('about twentyfold more likely').map((x) => [x.kind, x.value]), [['fold', 20]]);
    assert.deepEqual(statedQuantities('between 2.7−5.5 units').map((x) => [x.value, x.upper]), [[2.7, 5.5]]);
  });
});
