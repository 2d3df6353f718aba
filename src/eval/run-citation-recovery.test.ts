import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import { hashEmbedder } from '../models/testing/hash-embedder.js';
import { Retriever } from '../retrieve/retriever.js';
import { ingestSource } from '../store/ingest.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { wiceTask } from './retrieval-data.js';
import { DataProblemsError } from './data-problems.js';
import { runCitationRecoveryEval } from './run-citation-recovery.js';
import { collectRecoveryCandidates } from './recovery-candidates.js';
import { corpusStats } from '../audit/corpus-stats.js';
import { RANK_FEATURES } from '../audit/rank-features.js';
import { lexicalBaselines, readWiceClaims, detectionMetrics } from './run-citation-detection.js';

describe('citation recovery eval (fixture corpus, hashed embedder)', () => {
  let dir: string;
  let store: MemoryStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-recovery-'));
    // The in-memory store (same BM25 formula and analysis as LanceDB, exact cosine): no disk, no index builds.
    store = new MemoryStore();
    await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl', embedder: hashEmbedder });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ranks with bm25, dense, union, the engine and the cross-validated ranker, and scores P@1 / SR@k', async () => {
    const task = await wiceTask('test/fixtures/audit/pendrick-queries.jsonl');
    const r = await runCitationRecoveryEval({
      data: 'test/fixtures/audit/pendrick-queries.jsonl',
      queries: task.queries,
      qrels: task.qrels,
      store,
      retriever: new Retriever(store, hashEmbedder, { mode: 'hybrid', fusion: { method: 'union' } }),
      scorer: new LexicalPairScorer(),
      scoring: DEFAULT_SCORING,
      stats: await corpusStats(store),
      embedder: hashEmbedder,
      depth: 5,
      folds: 2,
    });
    assert.deepEqual(r.methods.map((m) => m.method), ['bm25', 'dense', 'union', 'union+verify', 'union+ranker [cv]']);
    for (const m of r.methods) {
      assert.ok(m.metrics['p@1'] <= m.metrics['sr@10'] && m.metrics['sr@10'] <= m.metrics['sr@100']);
      assert.equal(m.metrics['sr@100'], 1, `${m.method}: a 10-document corpus is all retrieved`);
    }
    assert.equal(r.nQueries, 4);
    assert.equal(r.name, 'pendrick-queries', 'named after the queries file, not "WiCE dev"');
    assert.equal(r.headline.reranked, 'union+ranker [cv]');
    assert.deepEqual(Object.keys(r.cvWeights), [...RANK_FEATURES]);
    assert.deepEqual(r.cvSeeds.map((s) => s.seed), [13, 1, 2, 3, 4]);
    assert.equal(r.cvSeeds[0]!.p1, r.headline.rerankedP1);
    // gained - lost is exactly the P@1 difference, in claims.
    assert.equal(r.versusFirstStage.gained - r.versusFirstStage.lost, Math.round((r.headline.rerankedP1 - r.headline.bestFirstStageP1) * r.nQueries));
  });

  it('gold documents missing from the index stop the run before any retrieval, every one listed', async () => {
    const task = await wiceTask('test/fixtures/audit/pendrick-queries.jsonl');
    const qrels = new Map(task.qrels);
    qrels.set(task.queries[0]!.id, new Map([['not-indexed-1', 1]]));
    qrels.set(task.queries[2]!.id, new Map([['not-indexed-2', 1]]));
    let searched = 0;
    const retriever = { search: async () => ((searched += 1), { documents: [] }) } as unknown as Retriever;
    await assert.rejects(
      runCitationRecoveryEval({ data: 'q.jsonl', queries: task.queries, qrels, store, retriever, scorer: new LexicalPairScorer(), scoring: DEFAULT_SCORING, stats: await corpusStats(store), embedder: hashEmbedder }),
      (e: unknown) => {
        assert.ok(e instanceof DataProblemsError, String(e));
        assert.deepEqual(e.problems.map((p) => p.problem.match(/"([^"]+)"/)?.[1]), ['not-indexed-1', 'not-indexed-2']);
        assert.match(e.message, /queries "q"/);
        return true;
      },
    );
    assert.equal(searched, 0);
  });

  it('collects the union of both lists\' top documents, each with a full feature row and its relevance', async () => {
    const task = await wiceTask('test/fixtures/audit/pendrick-queries.jsonl');
    const retriever = new Retriever(store, hashEmbedder, { mode: 'hybrid', fusion: { method: 'union' } });
    const claims = await collectRecoveryCandidates({ queries: task.queries, qrels: task.qrels, store, retriever, scorer: new LexicalPairScorer(), scoring: DEFAULT_SCORING, stats: await corpusStats(store), embedder: hashEmbedder, depth: 3 });
    for (const c of claims) {
      const expected = new Set([...c.runs.bm25.slice(0, 3), ...c.runs.dense.slice(0, 3)]);
      assert.deepEqual(new Set(c.candidates.map((d) => d.docId)), expected);
      assert.ok(c.candidates.every((d) => d.features.length === RANK_FEATURES.length && d.features.every(Number.isFinite)));
      const gold = [...task.qrels.get(c.qid)!.keys()];
      assert.deepEqual(c.candidates.filter((d) => d.relevant).map((d) => d.docId), gold.filter((g) => expected.has(g)));
      assert.equal(c.group, task.queries.find((q) => q.id === c.qid)!.title);
    }
  });
});

describe('citation detection helpers', () => {
  it('reads WiCE claims with context, title, section and the cited page', async () => {
    const claims = await readWiceClaims('test/fixtures/audit/wice-sample.jsonl');
    assert.equal(claims.length, 9);
    const c = claims[0]!;
    assert.equal(c.label, 'supported');
    assert.ok(c.context.length > 1);
    assert.ok(c.title && !c.section.endsWith('.'));
    assert.ok(c.doc.sentences.length > 0 && c.doc.title);
    const lex = lexicalBaselines(claims);
    assert.equal(lex.bm25.length, 9);
    const m = detectionMetrics(lex.tfidf, claims.map((x) => x.label), 'not_supported').metrics;
    assert.equal(m.positives, 3);
    assert.ok(m.rocAuc >= 0 && m.rocAuc <= 1);
  });
});
