import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { pageSimilarity } from './page-similarity.js';
import { pageToDocument } from '../sources/page-text.js';

// A real page's shape: the SciFact abstract the shipped sample cites for the statins claim (PMID 10866211),
// followed by unrelated site text, as a fetched page would carry.
const page = pageToDocument(
  'Use of statins in either the prior 180 days or prior 3 years was associated with a significant reduction in the risk of hip fracture. ' +
    'Current use was associated with a 71% reduction in risk. ' +
    'These findings support an association between statin use by elderly patients and reduction in the risk of hip fracture. ' +
    'Subscribe to our newsletter for the latest research news. Cookies help us deliver our services. ' +
    'Our editors select the most important studies of the week and send them to you every Friday morning.',
  'text',
  'source:text',
  'Statin use and the risk of hip fracture',
);

describe('pageSimilarity', () => {
  it('is higher for a claim the page words than for one on another subject', () => {
    const worded = pageSimilarity('Statin use reduces the risk of hip fracture in elderly patients.', page);
    const other = pageSimilarity('Aspirin reduces the risk of heart attack.', page);
    const unrelated = pageSimilarity('The Eiffel Tower is located in Paris.', page);
    assert.ok(worded > 0.3, `worded ${worded}`);
    assert.ok(worded > other && other > unrelated, `${worded} > ${other} > ${unrelated}`);
    assert.equal(unrelated, 0, 'no shared word');
  });

  it('is a cosine in [0, 1], and 0 for a page without text', () => {
    const s = pageSimilarity('Use of statins was associated with a significant reduction in the risk of hip fracture.', page);
    assert.ok(s > 0 && s <= 1, String(s));
    assert.equal(pageSimilarity('Statins reduce fractures.', { id: 'e', title: 'Empty', sentences: [] }), 0);
  });

  it('reads the closest ~100-word passage, so a longer page does not dilute it further', () => {
    const claim = 'Current statin use was associated with a 71% reduction in the risk.';
    const padded = (n: number) => pageToDocument(`${'Cookies help us deliver our services. '.repeat(n)}Current use was associated with a 71% reduction in risk.`, 'text', `source:${n}`, 'x');
    const short = pageSimilarity(claim, padded(40));
    const long = pageSimilarity(claim, padded(400));
    assert.ok(long > 0.3 && long >= 0.8 * short, `400 sentences of site text: ${long}, 40: ${short}`);
  });
});
