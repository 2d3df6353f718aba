import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Document } from '../corpus/types.js';
import { coverageDetailOfDocument } from '../verify/coverage.js';
import { citationView, CitationViewSchema } from './citation-view.js';
import type { CitationAudit } from './types.js';

describe('citationView', () => {
  const claim = 'Aspirin reduces the risk of heart attack.';
  const document: Document = {
    id: 'tricyclics',
    title: 'Tricyclic antidepressants and headaches',
    sentences: ['Tricyclics were more likely to reduce the intensity of headaches (relative risk 1.41).'],
  } as Document;
  const audit = (coverage?: ReturnType<typeof coverageDetailOfDocument>): CitationAudit => ({
    id: 'c1',
    index: 0,
    claim,
    context: [],
    sectionPath: [],
    tags: { failedVerification: false, citationNeeded: false, deadLink: false },
    query: claim,
    source: { status: 'found', attempts: [] },
    verification: { score: 0.7, evidence: [], sentencesScored: 1, sentencesTotal: 1, support: 0.1, flagged: true, ...(coverage ? { coverage } : {}) },
    timingsMs: { source: 0, retrieve: 0, score: 0, rank: 0 },
  });

  it("says what the cited source leaves out of the claim, in the API's schema", () => {
    const coverage = coverageDetailOfDocument(claim, document);
    const view = citationView({ url: 'https://example.org/t' }, { status: 'found', document, attempts: [] }, audit(coverage), 'support', new Map());
    assert.equal(view.coverage?.text, "The source names 1 of the claim's 4 subject words (not: aspirin, heart, attack).");
    assert.deepEqual(view.coverage?.missing, ['aspirin', 'heart', 'attack']);
    // The web page shows it on the source's card.
    assert.equal(view.existing?.names, "Names 1 of the claim's 4 subject words (not: aspirin, heart, attack).");
    assert.equal(CitationViewSchema.safeParse(view).success, true);
  });

  it('leaves coverage out when the audit has none (no NLI head)', () => {
    const view = citationView({ url: 'https://example.org/t' }, { status: 'found', document, attempts: [] }, audit(), 'engine', new Map());
    assert.equal(view.coverage, undefined);
    assert.equal(view.existing?.names, undefined);
    assert.equal(CitationViewSchema.safeParse(view).success, true);
  });
});
