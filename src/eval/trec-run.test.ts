import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../util/package-root.js';
import { Retriever } from '../retrieve/retriever.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { scifactTask } from './retrieval-data.js';
import { runRetrievalEval } from './run-retrieval.js';
import { readTrecRun, scoreTrecRun, trecRunLines, writeTrecRun, type RunQuery } from './trec-run.js';

const SCIFACT = join(packageRoot(), 'data', 'samples', 'scifact');

describe('TREC run files', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'veracite-trec-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('writes "qid Q0 docid rank score tag" lines, ranks from 1, full-precision scores, one line per document', () => {
    const lines = trecRunLines({ queryId: '13', hits: [{ docId: '1606628', score: 12.345678912 }, { docId: '42', score: 3 }, { docId: '1606628', score: 1 }] }, 'veracite-bm25');
    assert.deepEqual(lines, ['13 Q0 1606628 1 12.345678912 veracite-bm25', '13 Q0 42 2 3 veracite-bm25']);
    assert.throws(() => trecRunLines({ queryId: 'a b', hits: [] }, 't'), /query id "a b" .* whitespace/);
    assert.throws(() => trecRunLines({ queryId: 'q', hits: [{ docId: 'd', score: NaN }] }, 't'), /score NaN is not a finite number/);
  });

  it('reports malformed run lines with file, line and column', async () => {
    const bad = join(dir, 'bad.run');
    await writeFile(bad, '1 Q0 d1 1 2.5 tag\n\n1 Q0 d2 two 2.4 tag\n');
    await assert.rejects(readTrecRun(bad), /bad\.run:3 field "rank": not an integer: "two"/);
    await writeFile(bad, '1 Q0 d1 1 2.5 tag\n1 Q0 d1 2 2.4 tag\n');
    await assert.rejects(readTrecRun(bad), /bad\.run:2 field "docid": document "d1" appears twice/);
    await writeFile(bad, '1 Q0 d1 1 2.5\n');
    await assert.rejects(readTrecRun(bad), /bad\.run:1: expected 6 columns/);
    await assert.rejects(readTrecRun(join(dir, 'none.run')), /none\.run: cannot read the run file \(ENOENT\)/);
  });

  it('orders like trec_eval (score, then doc id descending) unless told to follow the ranks', async () => {
    const run = join(dir, 'ties.run');
    const qrels = join(dir, 'ties.qrels');
    // d1 and d9 tie; trec_eval puts d9 first, the rank column puts d1 first.
    await writeFile(run, 'q1 Q0 d1 1 5 t\nq1 Q0 d9 2 5 t\nq1 Q0 d5 3 4 t\n');
    await writeFile(qrels, 'q1 0 d1 1\nq2 0 d7 1\n');
    const trec = await scoreTrecRun({ run, qrels, cutoffs: [1, 10] });
    assert.equal(trec.metrics['p@1'], 0, 'q1: d9 first');
    assert.deepEqual(trec.missingFromRun, ['q2']);
    assert.equal(trec.nEvaluated, 2, 'q2 counted as a miss (trec_eval -c)');
    assert.equal(trec.metrics['mrr'], (1 / 2 + 0) / 2);
    const byRank = await scoreTrecRun({ run, qrels, cutoffs: [1, 10], order: 'rank', missing: 'skip' });
    assert.equal(byRank.metrics['p@1'], 1);
    assert.equal(byRank.nEvaluated, 1);
  });

  it('a run written from real searches scores the same as the retrieval eval, with TREC and BEIR qrels', async () => {
    const store = await LanceStore.open(join(dir, 'index'));
    try {
      await ingestSource(store, join(SCIFACT, 'corpus.jsonl'), { format: 'scifact', batchSize: 500 });
      const retriever = new Retriever(store, undefined);
      const task = await scifactTask(join(SCIFACT, 'claims_dev.jsonl'));
      const queries = task.queries.slice(0, 40);
      const results: RunQuery[] = [];
      const direct = await runRetrievalEval({
        name: 'direct',
        queries,
        qrels: task.qrels,
        k: 20,
        cutoffs: [1, 10, 20],
        order: 'trec_eval',
        search: async (q, k) => {
          const hits = (await retriever.search(q.text, { k })).documents.map((d) => ({ docId: d.docId, score: d.score }));
          results.push({ queryId: q.id, hits });
          return hits;
        },
      });
      const run = join(dir, 'bm25.run');
      await writeTrecRun(run, results, 'veracite-bm25');
      const text = await readFile(run, 'utf8');
      assert.match(text.split('\n')[0]!, /^\d+ Q0 \d+ 1 [\d.e+-]+ veracite-bm25$/);

      const searched = new Set(queries.map((q) => q.id));
      const trecQrels = join(dir, 'test.qrels');
      const beirQrels = join(dir, 'test.tsv');
      const pairs = [...task.qrels].filter(([q]) => searched.has(q)).flatMap(([q, docs]) => [...docs].map(([d, r]) => [q, d, r] as const));
      await writeFile(trecQrels, pairs.map(([q, d, r]) => `${q} 0 ${d} ${r}`).join('\n') + '\n');
      await writeFile(beirQrels, `query-id\tcorpus-id\tscore\n${pairs.map(([q, d, r]) => `${q}\t${d}\t${r}`).join('\n')}\n`);
      for (const qrels of [trecQrels, beirQrels]) {
        const scored = await scoreTrecRun({ run, qrels, cutoffs: [1, 10, 20] });
        assert.equal(scored.nEvaluated, direct.nEvaluated);
        for (const [key, value] of Object.entries(direct.metrics)) assert.ok(Math.abs(scored.metrics[key]! - value) < 1e-12, `${qrels}: ${key} ${scored.metrics[key]} vs ${value}`);
      }
      assert.ok(direct.metrics['recall@20']! > 0.5, 'BM25 finds most cited abstracts of the sample');
    } finally {
      await store.close();
    }
  });
});
