/**
 * The plain bands: a supported badge (green) never shows below the supported band's threshold, in the band
 * function, the editors' view and the HTML report; contradictions and missing probabilities go to review; a
 * citation that could not be checked says how to check it.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BAND_THRESHOLDS, bandOf, citationBand, countByBand, howToCheck } from './bands.js';
import { citationView } from './citation-view.js';
import { renderAuditHtml } from './report-html.js';
import type { AuditReport, CitationAudit, SourceReport, Verification } from './types.js';
import { evaluateBands, fitThresholds } from '../learn/bands.js';

const citation = (index: number, v?: Partial<Verification>, source: Partial<SourceReport> = {}): CitationAudit => {
  const c = {
    id: `c${index}`,
    index,
    claim: `claim ${index}`,
    context: [],
    sectionPath: [],
    tags: { failedVerification: false, citationNeeded: false, deadLink: false },
    query: '',
    source: { status: v ? 'found' : 'not-found', attempts: [], ...source },
    timingsMs: { source: 0, retrieve: 0, score: 0, rank: 0 },
    ...(v ? { verification: { score: 0.5, evidence: [], sentencesScored: 1, sentencesTotal: 1, flagged: false, ...v } } : {}),
  } as unknown as CitationAudit;
  c.band = citationBand(c);
  return c;
};

const report = (cs: CitationAudit[]): AuditReport =>
  ({
    article: { title: 'T', origin: 'test', format: 'wikitext' },
    citations: cs,
    summary: { citations: cs.length, byStatus: {}, scored: cs.length, flagged: 0, withSuggestions: 0, taggedFailedVerification: 0, byBand: countByBand(cs), seconds: 1, citationsPerSecond: 1 },
    provenance: { models: [{ id: 'm', version: '1', backend: 'trained' }], flagging: { signal: 'support', threshold: 0, probabilityThreshold: 0.175 }, configHash: 'x', config: { scoring: { granularity: 'sentence', preselect: 48 }, queryContext: 'none' } },
  }) as unknown as AuditReport;

describe('plain bands', () => {
  it('supported only at or above the supported threshold, whatever the probability and contradiction (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (p, contradicted) => {
        const b = bandOf(p, contradicted);
        if (b === 'supported') return p >= BAND_THRESHOLDS.supportedFrom && !contradicted;
        return true;
      }),
    );
    assert.equal(bandOf(BAND_THRESHOLDS.supportedFrom, false), 'supported');
    assert.equal(bandOf(BAND_THRESHOLDS.supportedFrom - 1e-9, false), 'partly-supported');
    assert.equal(bandOf(BAND_THRESHOLDS.partlyFrom - 1e-9, false), 'needs-review');
    assert.equal(bandOf(BAND_THRESHOLDS.notSupportedBelow - 1e-9, false), 'not-supported');
  });

  it('a stated conflict is not supported; a model contradiction without words and missing probabilities need review', () => {
    // bandOf's `contradicted`: a decisive finding states the conflict (verify/decision.ts): not supported at any probability.
    assert.equal(bandOf(0.99, true), 'not-supported');
    assert.equal(bandOf(0.05, true), 'not-supported');
    assert.equal(bandOf(undefined, false), 'needs-review');
    assert.equal(citationBand(citation(1, { probability: 0.99, contradicted: true })).band, 'needs-review');
    // The old flag threshold of another calibration no longer overrides the band: one threshold (issue 36).
    assert.equal(citationBand(citation(2, { probability: 0.3, flagged: true })).band, 'partly-supported');
  });

  it('the view and the HTML report show the green badge only in the supported band', () => {
    const just = BAND_THRESHOLDS.supportedFrom;
    const cs = [citation(0, { probability: just - 0.001 }), citation(1, { probability: just }), citation(2, { probability: 0.3 }), citation(3, { probability: 0.99, contradicted: true })];
    const views = cs.map((c) => citationView({}, { status: 'found', attempts: [] }, c, 'support', new Map()));
    assert.deepEqual(
      views.map((v) => v.band),
      ['partly-supported', 'supported', 'partly-supported', 'needs-review'],
    );
    const html = renderAuditHtml(report(cs));
    const green = [...html.matchAll(/<span class="pill band ok" data-band="supported"/g)];
    assert.equal(green.length, 1);
    // Every section with a green border is in the supported band.
    for (const m of html.matchAll(/<section class="cit (\w+)" id="c(\d+)">/g)) if (m[1] === 'high') assert.equal(cs[Number(m[2])]!.band!.band, 'supported');
  });

  it('a citation that could not be checked says how: --fetch, --sources FOLDER, upload in the web page', () => {
    const off = citation(5, undefined, { status: 'not-found', reason: 'not in the index or the snapshot folder (live fetch is off)' });
    const b = citationBand(off);
    assert.equal(b.band, 'could-not-check');
    assert.match(b.howToCheck!, /--fetch/);
    assert.match(b.howToCheck!, /--sources FOLDER/);
    assert.match(b.howToCheck!, /upload/);
    assert.match(howToCheck({ status: 'no-url', ids: { isbn: '978' } }), /book by hand/);
    assert.match(howToCheck({ status: 'not-found', workNotFound: true }), /correct the identifier/);
    assert.match(howToCheck({ status: 'unreadable', reason: 'no text layer: run OCR' }), /OCR/);
    const view = citationView({}, { status: 'not-found', attempts: [] }, off, 'support', new Map());
    assert.equal(view.band, 'could-not-check');
    assert.match(view.howToCheck!, /--fetch/);
    assert.match(renderAuditHtml(report([off])), /To check it: fetch the source \(--fetch\)/);
  });

  it('fitting: thresholds minimise the cost on separable data, and the evaluation counts the confusion', () => {
    const items = [
      ...Array.from({ length: 20 }, (_, i) => ({ p: 0.9 + i / 1000, contradicted: false, label: 'supported' as const })),
      ...Array.from({ length: 20 }, (_, i) => ({ p: 0.5 + i / 1000, contradicted: false, label: 'partially_supported' as const })),
      ...Array.from({ length: 20 }, (_, i) => ({ p: 0.05 + i / 1000, contradicted: false, label: 'not_supported' as const })),
    ];
    const t = fitThresholds(items);
    const e = evaluateBands(items.map((i) => ({ band: bandOf(i.p, false, t), label: i.label })));
    assert.ok(e.accuracyDecided >= 0.95, String(e.accuracyDecided));
    assert.ok(e.reviewShare <= 0.05, String(e.reviewShare));
    assert.equal(e.confusion.not_supported.supported, 0);
  });
});
