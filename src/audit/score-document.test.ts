import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Document } from '../corpus/types.js';
import type { PairScorer, ScoredPair } from '../models/types.js';
import { scoreDocuments, type ScoringConfig } from './score-document.js';

/** Scores a text by the number it contains ("s0.7" -> 0.7), records every pair it was asked about. */
class TableScorer implements PairScorer {
  readonly info = { id: 'table', version: '1', backend: 'test' };
  calls: ScoredPair[][] = [];
  async score(pairs: ScoredPair[]): Promise<number[]> {
    this.calls.push(pairs);
    return pairs.map((p) => {
      const all = [...p.passage.matchAll(/s(0\.\d+)/g)].map((m) => Number(m[1]));
      return all.length ? Math.max(...all) : 0;
    });
  }
}

// 12 sentences of 10 words each: with maxWords 30, passages of 3 sentences.
const words = (tag: string) => `${tag} alpha beta gamma delta epsilon zeta eta theta iota.`;
const doc: Document = {
  id: 'd',
  title: 'Doc',
  sentences: ['s0.1', 's0.2', 's0.3', 's0.15', 's0.9', 's0.2', 's0.3', 's0.4', 's0.35', 's0.05', 's0.1', 's0.1'].map(words),
};
const base: ScoringConfig = { granularity: 'sentence', maxWords: 30, preselect: 0, evidenceK: 3 };

describe('scoreDocuments', () => {
  it('document score = max over passages of max over sentences, with the best passage and top-3 evidence', async () => {
    const [r] = await scoreDocuments(new TableScorer(), [{ query: 'q', doc }], base);
    assert.equal(r!.score, 0.9);
    assert.equal(r!.best!.index, 1);
    assert.deepEqual([r!.best!.sentenceStart, r!.best!.sentenceEnd], [3, 6]);
    assert.deepEqual(r!.evidence.map((e) => e.sentenceIndex), [4, 7, 8]);
    assert.deepEqual(r!.evidence.map((e) => e.score), [0.9, 0.4, 0.35]);
    assert.equal(r!.unitsScored, 12);
  });

  it('passage granularity scores whole passages, then finds evidence inside the best one', async () => {
    const scorer = new TableScorer();
    const [r] = await scoreDocuments(scorer, [{ query: 'q', doc }], { ...base, granularity: 'passage' });
    assert.equal(r!.score, 0.9);
    assert.equal(r!.best!.index, 1);
    assert.equal(scorer.calls[0]!.length, 4, 'one pair per passage');
    assert.deepEqual(r!.evidence.map((e) => e.sentenceIndex), [4, 5, 3]);
  });

  it('scores only the given passages when retrieval picked them', async () => {
    const passages = (await import('../corpus/passages.js')).chunkPassages(doc, { maxWords: 30 });
    const [r] = await scoreDocuments(new TableScorer(), [{ query: 'q', doc, passages: [passages[2]!] }], base);
    assert.equal(r!.score, 0.4);
    assert.equal(r!.best!.index, 2);
  });

  it('pre-selects at most `preselect` sentences by TF-IDF similarity to the query', async () => {
    const d: Document = { id: 'x', title: 'X', sentences: ['The bridge opened in 1932 s0.2', 'Roses need sun s0.9', 'Bridge opened to traffic s0.3', 'Unrelated text s0.8'] };
    const scorer = new TableScorer();
    const [r] = await scoreDocuments(scorer, [{ query: 'the bridge opened', doc: d }], { ...base, preselect: 2 });
    assert.equal(scorer.calls[0]!.length, 2);
    assert.equal(r!.score, 0.3, 'the unrelated high scorers were never scored');
    assert.equal(r!.unitsTotal, 4);
  });

  it('batches every job into one scorer call and gives no score to an empty document', async () => {
    const scorer = new TableScorer();
    const empty: Document = { id: 'e', title: 'E', sentences: [] };
    const res = await scoreDocuments(scorer, [{ query: 'a', doc }, { query: 'b', doc: empty }, { query: 'c', doc }], base);
    assert.equal(scorer.calls.length, 1);
    assert.equal(res[1]!.score, undefined);
    assert.equal(res[1]!.evidence.length, 0);
    assert.equal(res[2]!.score, 0.9);
  });
});
