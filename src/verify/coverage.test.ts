import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { claimCoverage, coverageDetailOfDocument, coverageInWords, coverageOfDocument, COVERAGE_WINDOW, documentCoverage } from './coverage.js';

describe('claim coverage of a document', () => {
  const claim = 'Aspirin reduces the risk of heart attack.';
  it('reads the title with the sentences, and says how much of the claim a document names', () => {
    const aspirin = { id: 'a', title: 'Aspirin in primary prevention', sentences: ['Users had fewer heart attacks over ten years.', 'The risk fell by a fifth.'] };
    const tricyclics = { id: 't', title: 'Tricyclic antidepressants and headaches', sentences: ['Tricyclics reduced the intensity of headaches (relative risk 1.41).'] };
    const byId = documentCoverage(claim, [aspirin, tricyclics]);
    assert.equal(byId.get('a'), 1, 'aspirin only in the title still counts');
    assert.ok(byId.get('t')! <= 0.25, `tricyclics: ${byId.get('t')}`);
    assert.equal(coverageOfDocument(claim, aspirin), byId.get('a'));
    assert.ok(coverageOfDocument(claim, { title: 'Heart', sentences: [] }) < 1);
  });
  it('counts a long page passage by passage, so its length alone does not cover the claim', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `Section ${i} describes the clinic's opening hours and staff in some detail.`);
    const spread = ['Aspirin is sold in every pharmacy.', ...filler, 'Heart attack risk is a topic of its own.'];
    const close = ['Aspirin is sold in every pharmacy.', 'Heart attack risk is a topic of its own.', ...filler];
    assert.ok(claimCoverage(claim, spread) < claimCoverage(claim, close), `${claimCoverage(claim, spread)} vs ${claimCoverage(claim, close)}`);
    assert.ok(COVERAGE_WINDOW >= 100 && COVERAGE_WINDOW <= 400, 'about a SciFact abstract');
  });
  it('names the subject words the best passage leaves out, for people to read', () => {
    const tricyclics = { title: 'Tricyclic antidepressants and headaches', sentences: ['Tricyclics reduced the intensity of headaches (relative risk 1.41).'] };
    const d = coverageDetailOfDocument(claim, tricyclics);
    // "reduces" is a change word, read by the entailment model: not a subject word.
    assert.deepEqual(d.subjectWords, ['aspirin', 'risk', 'heart', 'attack']);
    assert.deepEqual(d.missing, ['aspirin', 'heart', 'attack']);
    assert.equal(d.share, coverageOfDocument(claim, tricyclics));
    assert.equal(coverageInWords(d), "names 1 of the claim's 4 subject words (not: aspirin, heart, attack)");
    const all = coverageDetailOfDocument(claim, { title: 'Aspirin and heart attack', sentences: ['The risk fell.'] });
    assert.deepEqual(all.missing, []);
    assert.equal(coverageInWords(all), "names all 4 of the claim's subject words");
  });
});
