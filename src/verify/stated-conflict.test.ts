import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { capStatedConflict } from './stated-conflict.js';

const p = (entailment: number, neutral: number, contradiction: number) => ({ entailment, neutral, contradiction });

describe('a sentence that states the opposite change cannot support the claim', () => {
  it('caps entailment at contradiction when the evidence changes the same thing the other way', () => {
    // The NLI head's reading of this pair in the demo index (entailment 0.54, contradiction 0.36).
    const capped = capStatedConflict('Smoking reduces the risk of lung cancer.', "Smoking cessation substantially reduces a person's risk for developing and dying of lung cancer.", p(0.54, 0.1, 0.36));
    assert.equal(capped.entailment, 0.36);
    assert.equal(capped.contradiction, 0.36);
    assert.ok(Math.abs(capped.entailment + capped.neutral + capped.contradiction - 1) < 1e-9);
    assert.equal(capStatedConflict('Statins double the risk of hip fracture.', 'Statin use was associated with a 71% reduction in the risk of hip fracture.', p(0.6, 0.3, 0.1)).entailment, 0.1);
  });
  it('leaves agreeing evidence, and conflicts of other kinds, alone', () => {
    const agree = p(0.7, 0.2, 0.1);
    assert.deepEqual(capStatedConflict('Smoking increases the risk of lung cancer.', 'Smoking raises the risk of lung cancer.', agree), agree);
    // A number in the same unit is a stated conflict (explicit-conflict.ts) but not one that rules support out.
    assert.deepEqual(capStatedConflict('The trial enrolled 300 patients.', 'The trial enrolled 320 patients.', agree), agree);
    const already = p(0.2, 0.1, 0.7);
    assert.deepEqual(capStatedConflict('Smoking reduces the risk of lung cancer.', "Smoking cessation reduces a person's risk of lung cancer.", already), already);
  });
});
