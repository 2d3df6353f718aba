import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Passage } from '../corpus/types.js';
import { fuse } from './fusion.js';
import { groupByDocument } from './group-documents.js';
import type { RankedPassage } from './types.js';

function p(id: string, docId = id.split('#')[0]!): Passage {
  return { id, docId, title: docId, index: 0, sentenceStart: 0, sentenceEnd: 1, text: id };
}
function ranked(ids: string[], scores?: number[]): RankedPassage[] {
  return ids.map((id, i) => ({ passage: p(id), score: scores?.[i] ?? 10 - i, rank: i + 1 }));
}

describe('fusion', () => {
  it('RRF: a passage in both lists beats one that tops a single list', () => {
    const fused = fuse(ranked(['a#0', 'b#0', 'c#0']), ranked(['d#0', 'b#0', 'e#0']), { method: 'rrf', rrfK: 60 });
    assert.equal(fused[0]!.passage.id, 'b#0');
    assert.equal(fused[0]!.score, 2 / 62);
    assert.equal(fused[0]!.sparseRank, 2);
    assert.equal(fused[0]!.denseRank, 2);
  });

  it('union keeps every passage of both lists exactly once', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 30 })), fc.uniqueArray(fc.integer({ min: 0, max: 30 })), (a, b) => {
        const fused = fuse(ranked(a.map((x) => `d${x}#0`)), ranked(b.map((x) => `d${x}#0`)), { method: 'union' });
        const expected = new Set([...a, ...b].map((x) => `d${x}#0`));
        assert.equal(fused.length, expected.size);
        assert.deepEqual(new Set(fused.map((f) => f.passage.id)), expected);
        fused.forEach((f, i) => assert.equal(f.rank, i + 1));
      }),
    );
  });

  it('weighted: min-max normalised per list; weight 1 reproduces the sparse order', () => {
    const sparse = ranked(['a#0', 'b#0', 'c#0'], [12, 7, 2]);
    const dense = ranked(['c#0', 'a#0'], [0.9, 0.1]);
    const onlySparse = fuse(sparse, dense, { method: 'weighted', sparseWeight: 1 });
    assert.deepEqual(onlySparse.map((f) => f.passage.id), ['a#0', 'b#0', 'c#0']);
    const half = fuse(sparse, dense, { method: 'weighted', sparseWeight: 0.5 });
    // a: 0.5*1 + 0.5*0 = 0.5; b: 0.5*0.5 = 0.25; c: 0.5*0 + 0.5*1 = 0.5 -> tie broken by id
    assert.deepEqual(half.map((f) => [f.passage.id, f.score]), [['a#0', 0.5], ['c#0', 0.5], ['b#0', 0.25]]);
  });
});

describe('groupByDocument', () => {
  it('scores a document by its best passage, not by how many passages it has', () => {
    const docs = groupByDocument([
      { passage: p('long#0'), score: 3, rank: 1 },
      { passage: p('long#1'), score: 2.9, rank: 2 },
      { passage: p('long#2'), score: 2.8, rank: 3 },
      { passage: p('short#0'), score: 5, rank: 4 },
    ]);
    assert.deepEqual(docs.map((d) => [d.docId, d.score, d.rank, d.passages.length]), [['short', 5, 1, 1], ['long', 3, 2, 3]]);
  });
});
