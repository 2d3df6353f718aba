import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LexicalPairScorer } from '../audit/lexical.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import type { Embedder } from '../models/types.js';
import { Retriever } from '../retrieve/retriever.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { contentTokens } from '../verify/tfidf.js';
import { wiceTask } from './retrieval-data.js';
import { runCitationRecoveryEval } from './run-citation-recovery.js';
import { lexicalBaselines, readWiceClaims, detectionMetrics } from './run-citation-detection.js';

/** Hashed bag of words: a deterministic stand-in for USE, so the dense path runs without a model. */
const hashEmbedder: Embedder = {
  info: { id: 'hash-bow-64', version: '1', backend: 'test' },
  dimension: 64,
  async embed(texts) {
    return texts.map((t) => {
      const v = new Float32Array(64);
      for (const tok of contentTokens(t)) v[createHash('md5').update(tok).digest()[0]! % 64] += 1;
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  },
};

describe('citation recovery eval (fixture corpus, hashed embedder)', () => {
  let dir: string;
  let store: LanceStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-recovery-'));
    store = await LanceStore.open(join(dir, 'idx'));
    await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl', embedder: hashEmbedder });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ranks with bm25, dense, union and the reranked union, and scores P@1 / SR@k', async () => {
    const task = await wiceTask('test/fixtures/audit/pendrick-queries.jsonl');
    const r = await runCitationRecoveryEval({
      queries: task.queries,
      qrels: task.qrels,
      store,
      retriever: new Retriever(store, hashEmbedder, { mode: 'hybrid', fusion: { method: 'union' } }),
      scorer: new LexicalPairScorer(),
      scoring: DEFAULT_SCORING,
      queryContexts: ['none', 'previous'],
      rerankDepth: 5,
      rankWeights: [0.1],
    });
    const names = r.methods.map((m) => m.method);
    assert.deepEqual(names, ['bm25', 'dense', 'union', 'union+verify', 'union+verify+rank(0.1)', 'rrf(bm25,dense,verify)', 'union+verify [context previous]', 'union+verify+rank(0.1) [context previous]', 'rrf(bm25,dense,verify) [context previous]']);
    for (const m of r.methods) {
      assert.ok(m.metrics['p@1'] <= m.metrics['sr@10'] && m.metrics['sr@10'] <= m.metrics['sr@100']);
      assert.equal(m.metrics['sr@100'], 1, `${m.method}: a 10-document corpus is all retrieved`);
    }
    assert.equal(r.nQueries, 4);
    assert.equal(r.headline.reranked, 'union+verify');
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
