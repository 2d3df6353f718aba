import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { CORPUS_STATS_FILE, corpusStats } from './corpus-stats.js';
import { Bm25Stats } from '../text/bm25-stats.js';
import { RANK_FEATURES } from './rank-features.js';
import { SourceRanker, defaultRankerPath } from './source-ranker.js';
import { storedVectorsOf } from './rank-features.js';
import type { Store } from '../store/types.js';

const engine = { id: 'veracite-evidence-use@abc', version: 'sha256:abc', backend: 'trained' };

describe('source ranker file', () => {
  it('round-trips weights and scores a row as their dot product', () => {
    const w = RANK_FEATURES.map((_, j) => j / 10);
    const r = SourceRanker.fromJSON(SourceRanker.serialise(w, engine, 'use', { claims: 3 }));
    const x = RANK_FEATURES.map(() => 1);
    assert.ok(Math.abs(r.score(x) - w.reduce((a, b) => a + b, 0)) < 1e-12);
    assert.match(r.info.id, /^veracite-source-ranker@[0-9a-f]{12}$/);
    assert.equal(r.mismatch(engine), undefined);
    assert.match(r.mismatch({ ...engine, id: 'lexical-overlap' })!, /trained with engine veracite-evidence-use@abc/);
  });

  it('names the problem in a bad file', () => {
    const good = JSON.parse(SourceRanker.serialise(RANK_FEATURES.map(() => 0), engine, 'use', {}));
    assert.throws(() => SourceRanker.fromJSON('{', 'r.json'), /r.json: not JSON/);
    assert.throws(() => SourceRanker.fromJSON(JSON.stringify({ ...good, format: 'x' }), 'r.json'), /format is "x"/);
    assert.throws(() => SourceRanker.fromJSON(JSON.stringify({ ...good, features: ['sparse'] }), 'r.json'), /retrain with veracite train-ranker/);
    assert.throws(() => SourceRanker.fromJSON(JSON.stringify({ ...good, weights: [...good.weights.slice(1), null] }), 'r.json'), /finite numbers/);
  });

  it('ships trained weights that load and were trained with the default engine', async () => {
    const r = await SourceRanker.load(defaultRankerPath());
    assert.ok(r.file.weights.some((w) => w !== 0));
    assert.match(r.file.engine.id, /^veracite-evidence-use@/);
    const cv = (r.file.training['crossValidation'] as { p1: Record<string, number> }).p1;
    assert.ok(cv['ranker']! > 0 && cv['bm25']! > 0);
  });
});

describe('corpus statistics of an index', () => {
  it('match statistics built from the same passages, and are cached per snapshot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-cstats-'));
    try {
      const store = await LanceStore.open(join(dir, 'idx'));
      await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl' });
      const texts: string[] = [];
      for await (const b of store.passageTexts()) texts.push(...b);
      assert.equal(texts.length, (await store.stats()).passages);
      const direct = Bm25Stats.build(texts);
      const stats = await corpusStats(store, join(dir, 'idx'));
      assert.deepEqual(stats.toJSON(), direct.toJSON());
      // A cache file tagged with another snapshot is ignored; with this snapshot it is used as is.
      const file = join(dir, 'idx', CORPUS_STATS_FILE);
      const cached = JSON.parse(await readFile(file, 'utf8'));
      assert.equal(cached.snapshot, await store.snapshot());
      await writeFile(file, JSON.stringify({ ...cached, n: 999 }));
      assert.equal((await corpusStats(store, join(dir, 'idx'))).n, 999);
      await writeFile(file, JSON.stringify({ ...cached, snapshot: 'old', n: 999 }));
      assert.equal((await corpusStats(store, join(dir, 'idx'))).n, direct.n);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('stored vectors for the ranker', () => {
  it('are used only when the index vectors come from the same encoder and version', () => {
    const embedder = { info: { id: 'use-lite-512', version: 'v1', backend: 'onnx' }, dimension: 512, embed: async () => [] };
    const storeWith = (settings: Record<string, unknown>) => ({ settings, passageVectors: async () => new Map() }) as unknown as Store;
    assert.equal(typeof storedVectorsOf(storeWith({ embedder: embedder.info }), embedder), 'function');
    assert.equal(storedVectorsOf(storeWith({ embedder: { ...embedder.info, version: 'v2' } }), embedder), undefined);
    assert.equal(storedVectorsOf(storeWith({ embedder: { ...embedder.info, id: 'bge-small' } }), embedder), undefined);
    assert.equal(storedVectorsOf(storeWith({}), embedder), undefined);
  });
});
