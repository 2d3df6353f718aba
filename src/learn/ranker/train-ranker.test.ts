import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { uniform } from '../../util/rng.js';
import { assignFolds, crossValidatedScores, linearScore, listwiseLoss, trainListwise, type RankingExample } from './train-ranker.js';

/** Claims whose cited candidate is the one with the highest feature 0 (plus a noise feature 1). */
function synthetic(n: number, seed: number, groups = 10): RankingExample[] {
  const rand = uniform(seed);
  return Array.from({ length: n }, (_, q) => {
    const m = 3 + Math.floor(rand() * 5);
    const x = Array.from({ length: m }, () => [rand(), rand()]);
    const best = x.reduce((b, r, i) => (r[0]! > x[b]![0]! ? i : b), 0);
    return { x, y: x.map((_, i) => (i === best ? 1 : 0)), group: `g${q % groups}` };
  });
}

const p1 = (w: number[], data: RankingExample[]) => data.filter((d) => {
  const s = d.x.map((x) => linearScore(w, x));
  return d.y[s.indexOf(Math.max(...s))] === 1;
}).length / data.length;

describe('listwise training', () => {
  it('learns the deciding feature and ranks held-out claims by it', () => {
    const w = trainListwise(synthetic(200, 1), 2);
    assert.ok(w[0]! > 5 * Math.abs(w[1]!), `weights ${w}`);
    assert.ok(p1(w, synthetic(200, 2)) > 0.95);
  });

  it('lowers the objective from the zero start, and is deterministic', () => {
    const data = synthetic(100, 3);
    const w = trainListwise(data, 2, { iterations: 500 });
    assert.ok(listwiseLoss(w, data) < listwiseLoss([0, 0], data));
    assert.deepEqual(trainListwise(data, 2, { iterations: 500 }), w);
  });

  it('ignores claims whose cited page was not retrieved', () => {
    const data = synthetic(50, 4);
    const w = trainListwise(data, 2, { iterations: 200 });
    const withMiss = [...data, { x: [[9, 9], [0, 1]], y: [0, 0], group: 'gx' }];
    assert.deepEqual(trainListwise(withMiss, 2, { iterations: 200 }), w);
  });

  it('rejects feature rows of the wrong width', () => {
    assert.throws(() => trainListwise([{ x: [[1, 2, 3]], y: [1], group: 'a' }], 2), /expected 2/);
  });
});

describe('grouped cross-validation', () => {
  it('keeps each group in one fold, uses every fold, and depends only on the seed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 5, maxLength: 40 }), fc.integer({ min: 2, max: 5 }), fc.integer(), (groups, k, seed) => {
        const folds = assignFolds([...groups, ...groups], k, seed);
        assert.equal(folds.size, groups.length);
        assert.equal(new Set(folds.values()).size, Math.min(k, groups.length));
        assert.deepEqual(assignFolds([...groups].reverse(), k, seed), folds);
      }),
    );
  });

  it("scores a fold with weights that never saw that fold's labels", () => {
    const data = synthetic(120, 5, 12);
    const { scores } = crossValidatedScores(data, 2, 4, 13, { iterations: 300 });
    const folds = assignFolds(data.map((d) => d.group), 4, 13);
    // Scramble fold 0's labels: fold 0's held-out scores must not move, the others' must.
    const scrambled = data.map((d) => (folds.get(d.group) === 0 ? { ...d, y: [...d.y].reverse() } : d));
    const again = crossValidatedScores(scrambled, 2, 4, 13, { iterations: 300 }).scores;
    data.forEach((d, i) => {
      if (folds.get(d.group) === 0) assert.deepEqual(again[i], scores[i]);
    });
    assert.ok(data.some((d, i) => folds.get(d.group) !== 0 && again[i]!.some((v, j) => v !== scores[i]![j])));
    assert.ok(data.every((d, i) => scores[i]!.length === d.x.length));
  });
});
