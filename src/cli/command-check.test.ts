import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { readingsDisagree } from './command-check.js';

describe('check: the band and the NLI verdict', () => {
  it('a supported or partly supported band over a REFUTES reading says why the band stands', () => {
    for (const band of ['supported', 'partly-supported'] as const) {
      const why = readingsDisagree(band, 'REFUTES');
      assert.ok(why, band);
      const text = why('support', { score: 0.9, evidence: [], sentencesScored: 1, sentencesTotal: 1, similarity: 0.71 });
      assert.match(text, /^the NLI verdict on the evidence is REFUTES, but the band follows the probability of support with how closely the page words the claim \(similarity 0\.710\)/);
      assert.match(text, /decides the band only when the source states the conflict in so many words/);
    }
  });
  it('agreeing readings need no word', () => {
    assert.equal(readingsDisagree('supported', 'SUPPORTS'), undefined);
    assert.equal(readingsDisagree('not-supported', 'REFUTES'), undefined);
    assert.equal(readingsDisagree('supported', 'NOT ENOUGH INFO'), undefined);
    assert.equal(readingsDisagree('could-not-check', 'REFUTES'), undefined);
    assert.ok(readingsDisagree('not-supported', 'SUPPORTS'));
  });
});
