import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { counterClaims, twinMargin } from './counter-claims.js';

const probs = (entailment: number, contradiction: number) => ({ entailment, contradiction, neutral: 1 - entailment - contradiction });

describe('counter-claims', () => {
  it('say the opposite of the claim: the change flipped, the negation toggled', () => {
    assert.deepEqual(counterClaims('Alendronate increases the risk of fractures.'), ['Alendronate decreases the risk of fractures.', 'Alendronate does not increase the risk of fractures.']);
    const negated = counterClaims('Statins are not associated with a higher risk of hip fracture.');
    assert.ok(negated.includes('Statins are associated with a higher risk of hip fracture.'), JSON.stringify(negated));
    assert.ok(negated.includes('Statins are not associated with a lower risk of hip fracture.'), JSON.stringify(negated));
  });

  it('are the same on every call, and never another value or name (that is not the opposite)', () => {
    const claim = 'In 2010, 25% of Londoners smoked fewer than 10 cigarettes a day.';
    assert.deepEqual(counterClaims(claim), counterClaims(claim));
    for (const c of counterClaims(claim)) {
      assert.match(c, /2010/);
      assert.match(c, /25%/);
      assert.match(c, /Londoners/);
    }
  });

  it('the twin margin: how much more the evidence entails the claim than its most entailed counter-claim', () => {
    assert.ok(Math.abs(twinMargin(probs(0.8, 0.1), [probs(0.2, 0.7), probs(0.3, 0.5)])! - 0.5) < 1e-12);
    assert.ok(twinMargin(probs(0.4, 0.3), [probs(0.6, 0.2)])! < 0, 'the evidence reads the opposite as more entailed');
    assert.equal(twinMargin(probs(0.8, 0.1), []), undefined, 'no counter-claim, no margin');
  });
});
