/**
 * Findings that read real text (issue 36, item 2): one test per way a figure is written. Each gives a claim, a
 * source sentence with another value (the finding must fire, decisively) and a control with the claim's own
 * value written differently (no finding at all).
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { findingsOf } from './findings.js';
import { statedQuantities } from './quantities.js';

const decisive = (claim: string, evidence: string) => findingsOf(claim, evidence).filter((f) => f.decisive).map((f) => f.message);

/** The finding fires on `changed` (its message matches `says`) and not on `same`, the claim's value written otherwise. */
function form(claim: string, changed: string, says: RegExp, same: string): void {
  const fired = decisive(claim, changed);
  assert.ok(fired.some((m) => says.test(m)), `"${claim}" against "${changed}": ${JSON.stringify(findingsOf(claim, changed))}`);
  assert.deepEqual(findingsOf(claim, same), [], `"${claim}" against "${same}" (the same value)`);
}

describe('findings read figures as real text writes them (issue 36)', () => {
  it('numbers in words: "nine trials" against 12 trials; "nine" against 9', () => {
    form('The review pooled nine trials of the vaccine.', 'The review pooled 12 trials of the vaccine.', /12 trials, the claim says 9 trials/, 'The review pooled 9 trials of the vaccine.');
    form('Twenty-two countries signed the treaty.', 'Thirty-two countries signed the treaty.', /32 countries, the claim says 22 countries/, '22 countries signed the treaty.');
    // "one" is a pronoun or an article as often as a count: not read.
    assert.deepEqual(statedQuantities('One of the patients withdrew; one patient died.'), []);
  });

  it('a word between a figure and its unit: "5 consecutive months" is 5 months (the citation set\'s malaria #8)', () => {
    form('Patients were treated for 3 consecutive days.', 'Patients were treated for 5 consecutive days.', /5 days, the claim says 3 days/, 'Patients were treated for three days in a row.');
    assert.deepEqual(statedQuantities('for up to 5 consecutive months').map((q) => [q.value, q.unit, q.bound]), [[5, 'month', 'at-most']]);
  });

  it('"a dozen" is 12', () => {
    form('A dozen patients developed the rash.', 'Twenty patients developed the rash.', /20 patients, the claim says 12 patients/, '12 patients developed the rash.');
  });

  it('"one in five" is 20%: against 40% it fires, against 20% it does not', () => {
    form('One in five adults in the town smokes.', '40% of adults in the town smoke.', /40 percent, the claim says 20 percent/, '20% of adults in the town smoke.');
  });

  it('thin and no-break spaces inside a number ("10 000") and before a percent sign ("5 %")', () => {
    form('The survey covered 10\u2009000 households.', 'The survey covered 1\u2009000 households.', /1000 households, the claim says 10000 households/, 'The survey covered 10,000 households.');
    form('The survey covered 10\u00a0000 households.', 'The survey covered 100\u202f000 households.', /100000 households/, 'The survey covered 10000 households.');
    form('Unemployment fell to 5\u00a0% last year.', 'Unemployment fell to 15\u202f% last year.', /15 percent, the claim says 5 percent/, 'Unemployment fell to 5% last year.');
  });

  it('"per cent" is a percent', () => {
    form('84 per cent of patients had a favourable outcome.', '48% of patients had a favourable outcome.', /48 percent, the claim says 84 percent/, '84% of patients had a favourable outcome.');
  });

  it('figures next to slashes and brackets', () => {
    form('Mortality was 12% in the treated arm.', 'Mortality was 21%/25% in the treated/control arms.', /percent, the claim says 12 percent/, 'Mortality was 12%/25% in the treated/control arms.');
    form('Mortality was 12% in the treated arm.', 'Mortality in the treated arm was [21%] at one year.', /21 percent, the claim says 12 percent/, 'Mortality in the treated arm was [12%] at one year.');
    form('Mortality was 12% in the treated arm.', 'Mortality in the treated arm (21%) was lower than in controls.', /21 percent/, 'Mortality in the treated arm (12%) was lower than in controls.');
  });

  it('the unicode minus: a negative value, told from its positive and from a range dash', () => {
    form('The mean temperature in January is \u22125 \u00b0C.', 'The mean temperature in January is 5 \u00b0C.', /source says 5, the claim says -5/, 'The mean temperature in January is -5 \u00b0C.');
    form('Scores changed by \u22120.4 points.', 'Scores changed by 0.4 points.', /0\.4, the claim says -0\.4/, 'Scores changed by -0.4 points.');
    assert.deepEqual(statedQuantities('95% CI \u22120.6 to \u22120.2').map((q) => [q.value, q.upper]), [[-0.6, -0.2]]);
    assert.deepEqual(statedQuantities('between 2.7\u22125.5 units').map((q) => [q.value, q.upper]), [[2.7, 5.5]]);
  });

  it('ranges: "between 20 and 30%" against 40–50%; the same range written with an en dash', () => {
    form('Between 20 and 30% of patients relapsed.', '40\u201350% of patients relapsed.', /40 to 50 percent, the claim says 20 to 30 percent/, '20\u201330% of patients relapsed.');
  });

  it('n-fold: "threefold" against 5-fold; against "3-fold"', () => {
    form('The new drug made remission threefold more likely.', 'The new drug made remission 5-fold more likely.', /5-fold, the claim says 3-fold/, 'The new drug made remission 3-fold more likely.');
  });

  it('ratios with confidence intervals: the ratio is compared, not its interval', () => {
    form('Smokers had a higher risk of stroke (HR 1.9).', 'Smokers had a higher risk of stroke (HR 3.9; 95% CI 2.7\u20135.5).', /hazard ratio of 3\.9, the claim says a hazard ratio of 1\.9/, 'Smokers had a higher risk of stroke (hazard ratio 1.9, 95% CI 1.2\u20132.8).');
  });

  it('years: 1937 against 1932; "in the year 1932" and a full date', () => {
    form('The bridge was opened in 1932.', 'The bridge opened to traffic in March 1937.', /1937, the claim says 1932/, 'The bridge was opened in the year 1932.');
    assert.deepEqual(findingsOf('The bridge was opened in 1932.', 'The bridge opened to traffic on 19 March 1932.'), []);
  });
});

describe('no effect against an effect names the claim\'s subject (issue 36: verify refuted a claim its source states)', () => {
  const claim = 'Birth weight is associated with breast cancer risk.';
  it('"Birth order, prematurity, and maternal smoking were unrelated to breast cancer risk" denies nothing of birth weight', () => {
    assert.deepEqual(decisive(claim, 'Birth order, prematurity, and maternal smoking were unrelated to breast cancer risk.'), []);
  });
  it('"Birth weight was unrelated to breast cancer risk" denies it', () => {
    assert.ok(decisive(claim, 'Birth weight was unrelated to breast cancer risk.').some((m) => /no effect against an effect/.test(m)));
  });
});
