import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { readingsDisagree } from './command-check.js';

describe('check: the status and the NLI verdict', () => {
  it('"supported" over a REFUTES reading says which one wins and why', () => {
    const why = readingsDisagree('supported', 'REFUTES');
    assert.ok(why);
    const text = why('support', { score: 0.9, evidence: [], sentencesScored: 1, sentencesTotal: 1, similarity: 0.71 });
    assert.match(text, /^"supported": the status follows the flag signal \(the probability of support with how closely the page words the claim \(similarity 0\.710\)\)/);
    assert.match(text, /overrides it only when the source states the conflict in so many words/);
  });
  it('agreeing readings need no word', () => {
    assert.equal(readingsDisagree('supported', 'SUPPORTS'), undefined);
    assert.equal(readingsDisagree('fails-verification', 'REFUTES'), undefined);
    assert.equal(readingsDisagree('supported', 'NOT ENOUGH INFO'), undefined);
    assert.ok(readingsDisagree('fails-verification', 'SUPPORTS'));
  });
});
