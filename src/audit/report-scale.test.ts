import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { orderForReport, reportScale, signalScore } from './report-scale.js';
import type { AuditReport, CitationAudit, Verification } from './types.js';

const citation = (index: number, v?: Partial<Verification>): CitationAudit =>
  ({ id: `c${index}`, index, claim: `claim ${index}`, context: [], sectionPath: [], tags: { failedVerification: false, citationNeeded: false, deadLink: false }, query: '', source: { status: v ? 'found' : 'dead', attempts: [] }, timingsMs: { source: 0, retrieve: 0, score: 0, rank: 0 }, ...(v ? { verification: { score: 0.5, evidence: [], sentencesScored: 1, sentencesTotal: 1, ...v } } : {}) }) as unknown as CitationAudit;

describe('the report scale', () => {
  it('orders citations by the probability people read, which a contradicted source caps below its signal', () => {
    // #2's signal is the higher, but it is contradicted: its probability is capped to the NLI model's P(supports).
    const cs = [citation(1, { support: 0.3, supportSignal: 0.5, probability: 0.26 }), citation(2, { support: 0.05, supportSignal: 1.5, probability: 0.05, contradicted: true }), citation(3)];
    const { scored, unscored } = orderForReport(cs, 'support');
    assert.deepEqual(scored.map((c) => c.index), [2, 1]);
    assert.deepEqual(unscored.map((c) => c.index), [3]);
  });

  it('without probabilities, orders on the flag signal: the combined support signal when there is one', () => {
    const cs = [citation(1, { support: 0.2, supportSignal: 2.0 }), citation(2, { support: 0.6, supportSignal: -1.0 }), citation(3, { support: 0.1 })];
    assert.equal(signalScore(cs[0]!, 'support'), 2.0);
    assert.equal(signalScore(cs[2]!, 'support'), 0.1, 'P(supports) when the calibration does not combine');
    assert.deepEqual(orderForReport(cs, 'support').scored.map((c) => c.index), [2, 3, 1]);
  });

  it('says a combined support signal is not bounded to 0..1, and P(supports) alone is', () => {
    const report = (cs: CitationAudit[]) => ({ citations: cs, provenance: { models: [], flagging: { signal: 'support' } } }) as unknown as Pick<AuditReport, 'citations' | 'provenance'>;
    assert.equal(reportScale(report([citation(1, { support: 0.2, supportSignal: 2.0 })])).bounded, false);
    assert.equal(reportScale(report([citation(1, { support: 0.2 })])).bounded, true);
    assert.equal(reportScale(report([citation(1, { support: 0.2, supportSignal: 2.0, probability: 0.4 })])).kind, 'probability');
  });
});
