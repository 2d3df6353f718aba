import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { aggregateColumbia, aggregateConcat, DEFAULT_AGGREGATE } from './aggregate.js';
import { tfidfRank } from '../text/tfidf.js';

const p = (entailment: number, neutral: number, contradiction: number) => ({ entailment, neutral, contradiction });

describe('ColumbiaNLP aggregation', () => {
  it('one entailing sentence is enough to support, whatever the others say', () => {
    const r = aggregateColumbia([p(0.1, 0.8, 0.1), p(0.7, 0.2, 0.1), p(0.05, 0.9, 0.05)]);
    assert.equal(r.label, 'SUPPORTS');
  });
  it('refutes when no sentence entails and one contradicts', () => {
    assert.equal(aggregateColumbia([p(0.2, 0.7, 0.1), p(0.1, 0.3, 0.6)]).label, 'REFUTES');
  });
  it('support wins over refute when both pass their thresholds and support is stronger', () => {
    assert.equal(aggregateColumbia([p(0.8, 0.1, 0.1), p(0.1, 0.3, 0.6)]).label, 'SUPPORTS');
    assert.equal(aggregateColumbia([p(0.55, 0.1, 0.35), p(0.1, 0.1, 0.8)]).label, 'REFUTES');
  });
  it('NOT ENOUGH INFO without evidence or when nothing passes the thresholds', () => {
    assert.equal(aggregateColumbia([]).label, 'NOT ENOUGH INFO');
    assert.equal(aggregateColumbia([p(0.3, 0.4, 0.3)]).label, 'NOT ENOUGH INFO');
  });
  it('reports probabilities that sum to one, and the threshold moves the decision', () => {
    const r = aggregateColumbia([p(0.45, 0.5, 0.05)]);
    assert.ok(Math.abs(r.probs.SUPPORTS + r.probs.REFUTES + r.probs['NOT ENOUGH INFO'] - 1) < 1e-9);
    assert.equal(r.label, 'NOT ENOUGH INFO');
    assert.equal(aggregateColumbia([p(0.45, 0.5, 0.05)], { ...DEFAULT_AGGREGATE, supportThreshold: 0.4 }).label, 'SUPPORTS');
  });
  it('concat mode takes the single prediction', () => {
    assert.equal(aggregateConcat(p(0.1, 0.2, 0.7)).label, 'REFUTES');
  });
});

describe('TF-IDF pre-selection', () => {
  it('ranks the sentence sharing the rare claim terms first', () => {
    const s = tfidfRank('Fox 2000 Pictures released the film Soul Food.', [
      'Soul Food is a 1997 American comedy-drama film.',
      'It was released by Fox 2000 Pictures and stars Vanessa L. Williams.',
      'The film was produced by Kenneth Edmonds.',
    ]);
    assert.ok(s[1]! > s[0]! && s[1]! > s[2]!);
  });
});
