import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Document } from '../corpus/types.js';
import { coverageDetailOfDocument } from '../verify/coverage.js';
import { citeTemplate } from '../search/cite-template.js';
import { citationView, CitationViewSchema } from './citation-view.js';
import { NO_BETTER_SOURCE_BY_SEARCH, type CitationAudit, type Suggestion } from './types.js';

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

  describe('better sources found by search (--suggest-from search)', () => {
    const paper: Document = {
      id: 'search:https://doi.org/10.5555/seal.pups.2022',
      title: 'Grey seal pup production in Cornwall, 2016-2021',
      url: 'https://doi.org/10.5555/seal.pups.2022',
      sentences: ['We counted grey seal pups in Cornwall.', 'Pup production rose by a fifth between 2016 and 2021.'],
    } as Document;
    const indexed: Document = { id: 'doc-7', title: 'Seals of the south-west', url: 'https://seals.example/sw', sentences: ['Seals breed on the coast.'] } as Document;
    const accessDate = '2026-03-14';
    // The template as the audit made it (app/search.ts): the paper's metadata from the search answer.
    const template = citeTemplate({ url: paper.url!, title: paper.title, doi: '10.5555/seal.pups.2022', pmid: '35000001', journal: 'Journal of Coastal Ecology', date: '2022-01-15', authors: ['Ann Trewin', 'Peter Hosking'] }, accessDate);
    const suggestion = (doc: Document, extra: Partial<Suggestion> = {}): Suggestion => ({
      docId: doc.id, title: doc.title, url: doc.url!, score: 0.8, probability: 0.9, rerankScore: 0.8, firstStageRank: 1,
      evidence: [{ sentenceIndex: doc.sentences.length - 1, score: 0.8 }] as Suggestion['evidence'], ...extra,
    });
    const withRecommendations = (suggestions: Suggestion[], failures: string[] = []): CitationAudit => ({
      ...audit(),
      verification: { score: 0.1, probability: 0.05, evidence: [], sentencesScored: 1, sentencesTotal: 1, flagged: true },
      recommendations: {
        mode: 'bm25', queries: { sparse: claim, dense: claim }, candidates: suggestions.length, excluded: [], rankedBy: 'verification', suggestions,
        ...(suggestions.length ? {} : { noBetterSource: NO_BETTER_SOURCE_BY_SEARCH }),
        search: { queries: [{ provider: 'openalex', query: 'grey seal pup Cornwall', results: 3 }], failures, excluded: [] },
      },
    });
    const found = { foundBy: { provider: 'openalex', query: 'grey seal pup Cornwall', rank: 1 }, template, accessDate };

    it('carries the ready citation template, its access date and who found the source, as the CLI prints them', () => {
      const r = withRecommendations([suggestion(paper, found), suggestion(indexed)]);
      const view = citationView({ url: 'https://bakery.example/bread' }, { status: 'found', document, attempts: [] }, r, 'support', new Map([[paper.id, paper], [indexed.id, indexed]]));
      const [best, other] = view.suggestions;
      assert.equal(best?.url, 'https://doi.org/10.5555/seal.pups.2022');
      assert.equal(best?.template, '{{cite journal |author1=Ann Trewin |author2=Peter Hosking |title=Grey seal pup production in Cornwall, 2016-2021 |journal=Journal of Coastal Ecology |date=2022-01-15 |doi=10.5555/seal.pups.2022 |pmid=35000001 |access-date=2026-03-14}}');
      assert.equal(best?.accessDate, '2026-03-14');
      assert.deepEqual(best?.foundBy, { provider: 'openalex', label: 'OpenAlex search', query: 'grey seal pup Cornwall', rank: 1 });
      assert.equal(best?.score, 0.9, 'on the probability scale, as the cited source');
      assert.ok(best?.sentences.some((s) => s.evidence && /rose by a fifth/.test(s.text)));
      // An index's document was found by no search: no template or provider made up for it.
      assert.equal(other?.docId, 'doc-7');
      assert.equal(other?.template, undefined);
      assert.equal(other?.foundBy, undefined);
      assert.equal(view.searchFailures, undefined);
      const parsed = CitationViewSchema.safeParse(JSON.parse(JSON.stringify(view)));
      assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
      assert.equal(parsed.data?.suggestions[0]?.template, best?.template, 'the schema keeps the template (the API sends what it documents)');
    });

    it('names the providers that failed, and says nothing better was found by search', () => {
      const r = withRecommendations([], ['Crossref search: could not reach 127.0.0.1:9: connection refused (ECONNREFUSED)']);
      const view = citationView({ url: 'https://bakery.example/bread' }, { status: 'found', document, attempts: [] }, r, 'support', new Map());
      assert.deepEqual(view.suggestions, []);
      assert.equal(view.noBetterSource, 'no better source found by search');
      assert.deepEqual(view.searchFailures, ['Crossref search: could not reach 127.0.0.1:9: connection refused (ECONNREFUSED)']);
      assert.equal(CitationViewSchema.safeParse(view).success, true);
    });
  });
});
