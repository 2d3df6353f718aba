import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findWorkIds, landingUrl, noTextReason, primaryId, workIdFromUrl, workIdsOf } from './work-ids.js';

describe('work identifiers', () => {
  it('finds DOIs, arXiv ids and PubMed ids in reference text, without the sentence punctuation', () => {
    const text = 'Smith J. Tides. Nature 2019;12:3-9. doi:10.1038/s41586-019-1234-5. Preprint arXiv:1706.03762v5, also PMID: 31234567; and (10.1002/(SICI)1522-2594(199911)42:5).';
    const found = findWorkIds(text);
    assert.deepEqual(
      found.map((f) => [f.type, f.id]),
      [
        ['doi', '10.1038/s41586-019-1234-5'],
        ['arxiv', '1706.03762v5'],
        ['pmid', '31234567'],
        ['doi', '10.1002/(SICI)1522-2594(199911)42:5'],
      ],
    );
    // Offsets cover the identifier as written, prefix included.
    assert.equal(text.slice(found[0]!.start, found[0]!.end), 'doi:10.1038/s41586-019-1234-5');
    assert.equal(text.slice(found[1]!.start, found[1]!.end), 'arXiv:1706.03762v5');
  });

  it('leaves a DOI inside a URL to that URL, and ignores numbers that only look like DOIs', () => {
    assert.deepEqual(findWorkIds('See https://doi.org/10.1000/xyz123 for it.'), []);
    assert.deepEqual(findWorkIds('Version 10.2/3 of the tool; 2101.00001 without prefix.'), []);
    assert.deepEqual(findWorkIds('old style arXiv:hep-th/9901001.').map((f) => f.id), ['hep-th/9901001']);
  });

  it('reads identifiers from resolver URLs only', () => {
    assert.deepEqual(workIdFromUrl('https://doi.org/10.1038/nphys1170'), { type: 'doi', id: '10.1038/nphys1170' });
    assert.deepEqual(workIdFromUrl('http://dx.doi.org/10.1038/nphys1170'), { type: 'doi', id: '10.1038/nphys1170' });
    assert.deepEqual(workIdFromUrl('https://arxiv.org/abs/2101.00001v2'), { type: 'arxiv', id: '2101.00001v2' });
    assert.deepEqual(workIdFromUrl('https://arxiv.org/pdf/2101.00001.pdf'), { type: 'arxiv', id: '2101.00001' });
    assert.deepEqual(workIdFromUrl('https://pubmed.ncbi.nlm.nih.gov/31234567/'), { type: 'pmid', id: '31234567' });
    assert.deepEqual(workIdFromUrl('https://www.ncbi.nlm.nih.gov/pubmed/31234567'), { type: 'pmid', id: '31234567' });
    // A resolver on another port (a local replay in tests) is still the resolver.
    assert.deepEqual(workIdFromUrl('http://doi.org:8080/10.1038/nphys1170'), { type: 'doi', id: '10.1038/nphys1170' });
    for (const other of ['https://www.nature.com/articles/nphys1170', 'https://notdoi.org/10.1038/x', 'https://arxiv.org/list/cs.CL/recent', 'not a url']) {
      assert.equal(workIdFromUrl(other), undefined, other);
    }
  });

  it('builds landing pages, DOI first', () => {
    assert.equal(landingUrl('doi', '10.1002/(SICI)1097-4636#x'), 'https://doi.org/10.1002/(SICI)1097-4636%23x');
    assert.equal(landingUrl('arxiv', '2101.00001'), 'https://arxiv.org/abs/2101.00001');
    assert.equal(landingUrl('pmid', '123'), 'https://pubmed.ncbi.nlm.nih.gov/123/');
    assert.deepEqual(primaryId({ pmid: '1', arxiv: '2101.00001', doi: '10.1/x' }), { type: 'doi', id: '10.1/x' });
    assert.deepEqual(workIdsOf('Preprint arXiv:2101.00001.', ['https://doi.org/10.1000/abc']), { doi: '10.1000/abc', arxiv: '2101.00001' });
    assert.equal(workIdsOf('A book, Oxford 1999.'), undefined);
  });

  it('builds the landing pages of the other identifiers Wikipedia cites; catalogue ids only explain why there is no text', () => {
    assert.equal(landingUrl('pmc', '1326979'), 'https://pmc.ncbi.nlm.nih.gov/articles/PMC1326979/');
    assert.equal(landingUrl('hdl', '1721.1/12345'), 'https://hdl.handle.net/1721.1/12345');
    assert.equal(landingUrl('jstor', '20617660'), 'https://www.jstor.org/stable/20617660');
    assert.equal(landingUrl('bibcode', '2007Cell..130..395C'), 'https://ui.adsabs.harvard.edu/abs/2007Cell..130..395C/abstract');
    assert.deepEqual(primaryId({ pmid: '1', pmc: '2' }), { type: 'pmc', id: '2' });
    assert.equal(primaryId({ isbn: '978-0-12-345678-9', oclc: '5' }), undefined);
    assert.match(noTextReason({ isbn: '978-0-12-345678-9' }), /^a book \(ISBN 978-0-12-345678-9\): its page text is not available/);
    assert.equal(noTextReason(undefined), 'the citation has no URL and no DOI, arXiv or PubMed id');
  });
});
