import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { flaggedCaption } from './charts.js';

describe('the audit histogram says what its red bars are (issue 46 item 2)', () => {
  // The shipped sample's shape: flagged below the threshold and, by findings or a contradiction, above it.
  const scores = [0.05, 0.05, 0.2, 0.24, 0.25, 0.31, 0.5].map((score) => ({ score, flagged: true })).concat([0.6, 0.3].map((score) => ({ score, flagged: false })));
  it('the report: counted from the scores at the threshold in force', () => {
    assert.equal(flaggedCaption(scores, 0.147), 'red: 2 flagged at or below the dashed line (0.147), 5 above it: the source states otherwise, or the model reads a contradiction (needs review)');
    assert.equal(flaggedCaption(scores.slice(0, 2), 0.147), 'red: 2 flagged at or below the dashed line (0.147)');
  });
  it('the web page says the same', async () => {
    const web = (await import(join(import.meta.dirname, '..', 'web', 'audit.js'))) as { flaggedCaption(r: unknown[], t?: number): string };
    const results = scores.map((s) => ({ verifiability: s.score, failedVerification: s.flagged }));
    assert.equal(web.flaggedCaption(results, 0.147), 'Red: 2 flagged at or below 0.15, 5 above it: the source states otherwise, or the model reads a contradiction (needs review).');
  });
});
