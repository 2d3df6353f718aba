import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  dedupeRanking,
  evaluateQuery,
  evaluateRun,
  idealDcgAtK,
  metricKeys,
  ndcgAtK,
  recallAtK,
  reciprocalRank,
  sortLikeTrecEval,
  successAtK,
  precisionAt1,
  firstRelevantRank,
} from './retrieval-metrics.js';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

// qrels: a=1, b=2, n=0 (judged non-relevant)
const q = new Map<string, number>([
  ['a', 1],
  ['b', 2],
  ['n', 0],
]);

test('nDCG uses linear graded gain and ideal DCG from qrels (hand computed)', () => {
  // ranked x, b, a: DCG@3 = 0 + 2/log2(3) + 1/log2(4); IDCG@3 = 2/1 + 1/log2(3)
  const dcg = 2 / Math.log2(3) + 0.5;
  const idcg = 2 + 1 / Math.log2(3);
  close(ndcgAtK(['x', 'b', 'a'], q, 3), dcg / idcg);
  close(ndcgAtK(['x', 'b', 'a'], q, 3), 0.669672, 1e-6);
  // @1: nothing relevant at rank 1
  close(ndcgAtK(['x', 'b', 'a'], q, 1), 0);
  // @2: DCG = 2/log2(3); IDCG@2 = 2 + 1/log2(3)
  close(ndcgAtK(['x', 'b', 'a'], q, 2), 2 / Math.log2(3) / idcg);
  // perfect ranking
  close(ndcgAtK(['b', 'a', 'x'], q, 10), 1);
  // ideal is cut at k: IDCG@1 = 2, ranked a first gives 1/2
  close(idealDcgAtK(q, 1), 2);
  close(ndcgAtK(['a'], q, 1), 0.5);
});

test('recall, MRR, P@1, SR@k (hand computed)', () => {
  const r = ['x', 'b', 'n', 'a'];
  close(recallAtK(r, q, 1), 0);
  close(recallAtK(r, q, 2), 0.5);
  close(recallAtK(r, q, 4), 1);
  close(reciprocalRank(r, q), 0.5);
  close(reciprocalRank(r, q, 1), 0);
  assert.equal(precisionAt1(r, q), 0);
  assert.equal(precisionAt1(['a'], q), 1);
  assert.equal(successAtK(r, q, 1), 0);
  assert.equal(successAtK(r, q, 2), 1);
  assert.equal(firstRelevantRank(r, q), 2);
  assert.equal(firstRelevantRank(['x', 'n'], q), null);
});

test('duplicates keep their first occurrence', () => {
  assert.deepEqual(dedupeRanking(['b', 'x', 'b', 'a', 'x']), ['b', 'x', 'a']);
  // without dedupe, a duplicated "b" would push nDCG above 1 and recall above 1
  close(ndcgAtK(['b', 'b', 'a'], q, 3), 1);
  close(recallAtK(['b', 'b', 'b'], q, 2), 0.5);
  // dedupe happens before the cut: [x, x, b] @2 is [x, b]
  close(recallAtK(['x', 'x', 'b'], q, 2), 0.5);
  assert.equal(firstRelevantRank(['x', 'x', 'x', 'a'], q), 2);
});

test('sortLikeTrecEval: score desc, ties by doc id desc, best score of duplicates', () => {
  assert.deepEqual(
    sortLikeTrecEval([
      { docId: 'a', score: 1 },
      { docId: 'b', score: 2 },
      { docId: 'c', score: 1 },
      { docId: 'a', score: 3 },
    ]),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    sortLikeTrecEval([
      { docId: 'a', score: 1 },
      { docId: 'c', score: 1 },
    ]),
    ['c', 'a'],
  );
});

test('evaluateRun averages over queries with relevant docs only', () => {
  const qrels = new Map([
    ['q1', new Map([['a', 1]])],
    ['q2', new Map([['b', 1]])],
    ['q3', new Map([['c', 0]])], // judged but nothing relevant: excluded
  ]);
  const run = new Map<string, string[]>([
    ['q1', ['a']],
    ['q3', ['c']],
    ['q4', ['z']], // no qrels: excluded
  ]); // q2 missing from the run -> empty ranking, scores 0
  const res = evaluateRun(run, qrels, [1, 10]);
  assert.equal(res.nEvaluated, 2);
  assert.deepEqual([...res.excludedNoRelevant].sort(), ['q3', 'q4']);
  close(res.metrics['ndcg@10'], 0.5);
  close(res.metrics['recall@1'], 0.5);
  close(res.metrics['mrr'], 0.5);
  close(res.metrics['p@1'], 0.5);
  close(res.metrics['sr@10'], 0.5);
  assert.deepEqual(Object.keys(res.metrics).sort(), metricKeys([1, 10]).sort());
  assert.equal(res.perQuery.get('q2')?.firstRelevantRank, null);
  // no evaluable query: same keys, zeros
  const empty = evaluateRun(new Map(), new Map(), [5]);
  assert.equal(empty.nEvaluated, 0);
  assert.equal(empty.metrics['ndcg@5'], 0);
  assert.throws(() => evaluateRun(run, qrels, [0]), RangeError);
});

// ---- property test against a deliberately naive reference ----

function naive(ranked: string[], qrels: Map<string, number>, k: number) {
  // dedupe by scanning back over the prefix
  const list: string[] = [];
  for (let i = 0; i < ranked.length; i++) if (ranked.indexOf(ranked[i]) === i) list.push(ranked[i]);
  const top = list.slice(0, k);
  const rel = (d: string) => Math.max(0, qrels.get(d) ?? 0);
  let dcg = 0;
  top.forEach((d, i) => (dcg += rel(d) / (Math.log(i + 2) / Math.log(2))));
  const ideal = [...qrels.values()].map((v) => Math.max(0, v)).sort((a, b) => b - a).slice(0, k);
  let idcg = 0;
  ideal.forEach((g, i) => (idcg += g / (Math.log(i + 2) / Math.log(2))));
  const relevant = [...qrels.entries()].filter(([, v]) => v > 0).map(([d]) => d);
  const found = top.filter((d) => relevant.includes(d)).length;
  let rr = 0;
  for (let i = 0; i < top.length; i++) if (relevant.includes(top[i])) { rr = 1 / (i + 1); break; }
  return {
    ndcg: idcg === 0 ? 0 : dcg / idcg,
    recall: relevant.length === 0 ? 0 : found / relevant.length,
    mrr: rr,
    sr: found > 0 ? 1 : 0,
    p1: list.length > 0 && relevant.includes(list[0]) ? 1 : 0,
  };
}

test('property: metrics equal a naive reference implementation', () => {
  const docId = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
  fc.assert(
    fc.property(
      fc.array(docId, { maxLength: 20 }),
      fc.dictionary(docId, fc.integer({ min: -1, max: 3 })),
      fc.integer({ min: 1, max: 12 }),
      (ranked, qrelObj, k) => {
        const qrels = new Map(Object.entries(qrelObj));
        const got = evaluateQuery(ranked, qrels, [k]).values;
        const want = naive(ranked, qrels, k);
        close(got[`ndcg@${k}`], want.ndcg);
        close(got[`recall@${k}`], want.recall);
        close(got[`mrr@${k}`], want.mrr);
        close(got[`sr@${k}`], want.sr);
        close(got['p@1'], want.p1);
        assert.ok(got[`ndcg@${k}`] >= 0 && got[`ndcg@${k}`] <= 1 + 1e-12);
        assert.ok(got[`recall@${k}`] <= 1);
      },
    ),
    { numRuns: 500 },
  );
});
