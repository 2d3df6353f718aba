import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { counterClaims, counterPairs, readsAsSentence, splitCounterReads, twinMargin } from './counter-claims.js';

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

  it('reads each premise against the claim then its counter-claims, and splits the readings back per premise', () => {
    const counters = ['A does not rise.', 'A falls.'];
    const pairs = counterPairs('A rises.', ['p1', 'p2'], counters);
    assert.deepEqual(pairs.map((p) => `${p.premise}|${p.hypothesis}`), ['p1|A rises.', 'p1|A does not rise.', 'p1|A falls.', 'p2|A rises.', 'p2|A does not rise.', 'p2|A falls.']);
    const reads = [probs(0.8, 0.1), probs(0.1, 0.8), probs(0.2, 0.6), probs(0.3, 0.4), probs(0.2, 0.5), probs(0.6, 0.2)];
    const [first, second] = splitCounterReads(reads, 2, counters);
    assert.equal(first!.claim, reads[0]);
    assert.ok(Math.abs(first!.margin - 0.6) < 1e-12);
    assert.deepEqual(first!.opposite, { text: 'A falls.', readsAsSentence: true, entailment: 0.2, claimEntailment: 0.8 });
    assert.ok(second!.margin < 0, 'the second premise favours the opposite');
    assert.equal(second!.opposite!.text, 'A falls.');
    assert.deepEqual(splitCounterReads([probs(0.7, 0.1)], 1, []), [{ claim: probs(0.7, 0.1), margin: 0 }], 'no counter-claim: margin 0, no opposite');
    assert.throws(() => splitCounterReads(reads.slice(1), 2, counters), /expected 6 readings/);
  });
});

/** Counter-claim rewrites are shown only when they read as sentences (issue 36). */
describe('readsAsSentence', () => {
  it('leaves out the rewrites issue 36 found, keeps plain ones', () => {
    assert.equal(readsAsSentence('Treatment with bleomycin-did not induce lung fibrosis.'), false);
    assert.equal(readsAsSentence('Mice lacking the receptor are more unsusceptible to infection.'), false);
    assert.equal(readsAsSentence('The the drug lowers blood pressure.'), false);
    assert.equal(readsAsSentence('Caloric restriction speeds up methylation drift.'), true);
    assert.equal(readsAsSentence('1,000 genomes project enables mapping of rare variants with smaller penetrance effects than common variants.'), true);
  });

  it('is stated on the opposite a reading carries, for every surface to read', () => {
    const [reading] = splitCounterReads(
      [
        { entailment: 0.2, neutral: 0.5, contradiction: 0.3 },
        { entailment: 0.7, neutral: 0.2, contradiction: 0.1 },
      ],
      1,
      ['Treatment with bleomycin-did not induce lung fibrosis.'],
    );
    assert.equal(reading!.opposite!.readsAsSentence, false);
  });
});
