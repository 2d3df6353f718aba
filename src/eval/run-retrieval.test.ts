import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalQuery } from './retrieval-data.js';
import { runRetrievalEval, saveResult, type SearchHit } from './run-retrieval.js';

const queries: EvalQuery[] = [
  { id: 'q1', text: 'one', extra: {} },
  { id: 'q2', text: 'two', extra: {} },
  { id: 'q3', text: 'three', extra: {} },
];
const qrels = new Map([
  ['q1', new Map([['a', 1]])],
  ['q2', new Map([['b', 1], ['c', 1]])],
  ['q3', new Map([['z', 0]])], // nothing relevant: excluded
  ['q9', new Map([['a', 1]])], // not searched: ignored, not a miss
]);
const hits: Record<string, SearchHit[]> = {
  q1: [{ docId: 'a', score: 3 }, { docId: 'a', score: 2 }, { docId: 'x', score: 1 }],
  q2: [{ docId: 'x', score: 3 }, { docId: 'y', score: 2 }, { docId: 'c', score: 1 }],
  q3: [{ docId: 'z', score: 1 }],
};
const search = async (q: EvalQuery, k: number) => hits[q.id].slice(0, k + 1); // engine returns one extra hit

test('runRetrievalEval: metrics, per-query ranks, exclusions, progress', async () => {
  const progress: number[] = [];
  const r = await runRetrievalEval({
    name: 'toy',
    queries,
    qrels,
    search,
    k: 3,
    cutoffs: [1, 3],
    onProgress: (d, t) => {
      assert.equal(t, 3);
      progress.push(d);
    },
  });
  assert.deepEqual(progress, [1, 2, 3]);
  assert.equal(r.task, 'toy');
  assert.equal(r.nQueries, 3);
  assert.equal(r.nEvaluated, 2);
  assert.deepEqual(r.excludedNoRelevant, ['q3']);
  assert.deepEqual(
    r.perQuery.map((p) => [p.queryId, p.firstRelevantRank, p.nRelevant, p.nRetrieved]),
    [
      ['q1', 1, 1, 2],
      ['q2', 3, 2, 3],
      ['q3', null, 0, 1],
    ],
  );
  // q1 perfect; q2: first relevant at 3, 1 of 2 relevant found; nDCG@3 = (1/log2(4)) / (1 + 1/log2(3))
  const ndcgQ2 = 0.5 / (1 + 1 / Math.log2(3));
  assert.ok(Math.abs(r.metrics['ndcg@3'] - (1 + ndcgQ2) / 2) < 1e-12);
  assert.equal(r.metrics['recall@3'], 0.75);
  assert.equal(r.metrics['recall@1'], 0.5);
  assert.ok(Math.abs(r.metrics['mrr'] - (1 + 1 / 3) / 2) < 1e-12);
  assert.equal(r.metrics['mrr@1'], 0.5);
  assert.equal(r.metrics['p@1'], 0.5);
  assert.equal(r.metrics['sr@1'], 0.5);
  assert.equal(r.metrics['sr@3'], 1);
  assert.ok(r.timing.totalSeconds >= 0 && r.timing.queriesPerSecond > 0);
  assert.ok(!Number.isNaN(Date.parse(r.createdAt)));
});

test('runRetrievalEval: concurrency and trec_eval ordering', async () => {
  const base = { name: 't', queries, qrels, search, k: 3, cutoffs: [3] };
  const a = await runRetrievalEval(base);
  const b = await runRetrievalEval({ ...base, concurrency: 3 });
  assert.deepEqual(a.metrics, b.metrics);
  // Hits given out of score order: trec_eval ordering sorts them, 'given' keeps them.
  const unsorted = async () => [{ docId: 'x', score: 1 }, { docId: 'a', score: 2 }];
  const q = [queries[0]];
  const given = await runRetrievalEval({ ...base, queries: q, search: unsorted });
  const trec = await runRetrievalEval({ ...base, queries: q, search: unsorted, order: 'trec_eval' });
  assert.equal(given.perQuery[0].firstRelevantRank, 2);
  assert.equal(trec.perQuery[0].firstRelevantRank, 1);
});

test('runRetrievalEval: bad cutoffs and search failures', async () => {
  const base = { name: 't', queries, qrels, search, k: 3, cutoffs: [3] };
  await assert.rejects(runRetrievalEval({ ...base, cutoffs: [10] }), RangeError);
  await assert.rejects(runRetrievalEval({ ...base, k: 0 }), RangeError);
  await assert.rejects(
    runRetrievalEval({ ...base, search: async (q) => { if (q.id === 'q2') throw new Error('boom'); return []; } }),
    /query "q2": boom/,
  );
});

test('saveResult writes JSON and creates folders', async () => {
  const r = await runRetrievalEval({ name: 't', queries, qrels, search, k: 3, cutoffs: [1] });
  const p = join(await mkdtemp(join(tmpdir(), 'veracite-eval-')), 'a', 'b', 'result.json');
  await saveResult(r, p);
  assert.deepEqual(JSON.parse(await readFile(p, 'utf8')), r);
});
