import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationStatus, countByStatus } from './citation-status.js';
import type { CitationAudit, SourceReport, Verification } from './types.js';

function audit(source: Partial<SourceReport> & Pick<SourceReport, 'status'>, verification?: Partial<Verification>): Pick<CitationAudit, 'source' | 'verification'> {
  const c: Pick<CitationAudit, 'source' | 'verification'> = { source: { attempts: [], ...source } };
  if (verification) c.verification = { score: 0.5, evidence: [], sentencesScored: 3, sentencesTotal: 3, ...verification };
  return c;
}

describe('citationStatus', () => {
  it('reads support only from a scored source, with the flag deciding', () => {
    assert.equal(citationStatus(audit({ status: 'found' }, { score: 0.81, flagged: false })).status, 'supported');
    const fails = citationStatus(audit({ status: 'found' }, { score: 0.05, flagged: true }));
    assert.deepEqual([fails.status, fails.label], ['fails-verification', 'likely fails verification']);
    assert.match(fails.reason, /evidence score 0\.050: at or below/);
    // With a calibration, the probability of support (the scale the flag is decided on) leads, and each raw score says what it is.
    const calibrated = citationStatus(audit({ status: 'found' }, { score: 0.05, rankerScore: 2.211, probability: 0.12, flagged: true }));
    assert.equal(calibrated.reason, 'probability of support 12% (0-100%; from evidence score 0.050, source-ranker score 2.211 (linear, higher = better supported)): at or below the failed-verification threshold');
    // What the source leaves out of the claim is said with the reason.
    const coverage = { share: 0.25, subjectWords: ['aspirin', 'risk', 'heart', 'attack'], missing: ['aspirin', 'heart', 'attack'] };
    const unnamed = citationStatus(audit({ status: 'found' }, { score: 0.05, flagged: true, coverage }));
    assert.match(unnamed.reason, /at or below the failed-verification threshold; the source names 1 of the claim's 4 subject words \(not: aspirin, heart, attack\)$/);
    assert.doesNotMatch(citationStatus(audit({ status: 'found' }, { score: 0.81, flagged: false, coverage })).reason, /names/);
    // Flagged above the threshold because its evidence contradicts the claim: the reason says so.
    const contradicted = citationStatus(audit({ status: 'found' }, { score: 0.944, rankerScore: 14.123, support: 0.27, flagged: true, contradicted: true, conflict: 'direction' }));
    assert.equal(contradicted.status, 'fails-verification');
    assert.match(contradicted.reason, /source-ranker score 14\.123 \(linear, higher = better supported\): its best evidence contradicts the claim \(it changes the same thing in the opposite direction\) \(NLI P\(supports\) 0\.27\)/);
    assert.doesNotMatch(contradicted.reason, /at or below/);
    // Scored without a threshold: no verdict on support.
    const noThreshold = citationStatus(audit({ status: 'found' }, { score: 0.9 }));
    assert.equal(noThreshold.status, 'unverifiable');
    assert.match(noThreshold.reason, /no calibrated threshold/);
  });

  it('separates a missing work, a dead link, an unreadable source and one that could not be checked', () => {
    const missing = citationStatus(audit({ status: 'not-found', workNotFound: true, reason: 'cited work not found: doi.org has no DOI 10.1/x (HTTP 404)' }));
    assert.deepEqual([missing.status, missing.label], ['not-found', 'not found']);
    assert.match(missing.reason, /^cited work not found/);
    assert.equal(citationStatus(audit({ status: 'dead', reason: 'HTTP 404' })).status, 'dead-link');
    assert.equal(citationStatus(audit({ status: 'unreadable', reason: 'no text layer' })).status, 'unreadable');
    assert.equal(citationStatus(audit({ status: 'unsupported', reason: 'unsupported content type image/png' })).status, 'unreadable');
    for (const status of ['no-url', 'unreachable', 'blocked'] as const) assert.equal(citationStatus(audit({ status })).status, 'unverifiable', status);
    // Not looked up (fetch off) is not "the work does not exist".
    const offline = citationStatus(audit({ status: 'not-found', reason: 'not in the index or the snapshot folder (live fetch is off: --fetch)' }));
    assert.equal(offline.status, 'unverifiable');
    assert.match(offline.reason, /live fetch is off/);
  });

  it('never calls an unscored source supported or failing', () => {
    for (const status of ['not-found', 'dead', 'unreachable', 'unsupported', 'unreadable', 'blocked', 'no-url', 'found'] as const) {
      const s = citationStatus(audit({ status })).status;
      assert.ok(s !== 'supported' && s !== 'fails-verification', status);
    }
  });

  it('counts every status', () => {
    const counts = countByStatus([audit({ status: 'dead' }), audit({ status: 'dead' }), audit({ status: 'found' }, { flagged: false })]);
    assert.deepEqual(counts, { supported: 1, 'fails-verification': 0, 'not-found': 0, 'dead-link': 2, unreadable: 0, unverifiable: 0 });
  });
});
