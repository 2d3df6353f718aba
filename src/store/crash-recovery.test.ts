/**
 * Crash states an ingest can leave behind, recreated on disk (deterministic), and what the next open must
 * do with them. The real-kill version of these runs in bench/soak-ingest.ts.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestSource } from './ingest.js';
import { LanceStore } from './lancedb-store.js';

const SAMPLE = 'data/samples/scifact/corpus.jsonl';

async function sampleCorpus(dir: string, n: number): Promise<{ file: string; ids: string[] }> {
  const lines = (await readFile(SAMPLE, 'utf8')).split('\n').filter((l) => l.trim()).slice(0, n);
  const file = join(dir, `corpus-${n}.jsonl`);
  await writeFile(file, lines.join('\n') + '\n');
  return { file, ids: lines.map((l) => String((JSON.parse(l) as { doc_id: number }).doc_id)) };
}

/** The state a kill -9 leaves inside LanceDB's first createTable: data files written, no version committed. */
async function uncommitTable(idx: string, table: string): Promise<void> {
  await rm(join(idx, `${table}.lance`, '_versions'), { recursive: true, force: true });
  assert.ok((await readdir(join(idx, `${table}.lance`, 'data'))).length > 0, 'data files stay behind');
}

describe('a table whose first commit never finished (kill -9 inside the first createTable)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-half-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const tables of [['passages', 'documents'], ['documents']]) {
    it(`holding only uncommitted ${tables.join(' + ')}: index, index --no-resume and search work again`, async () => {
      const idx = join(dir, `idx-${tables.join('-')}`);
      const { file, ids } = await sampleCorpus(dir, 30);
      const first = await LanceStore.open(idx);
      await ingestSource(first, file, { format: 'scifact', batchSize: 10 });
      await first.close();
      for (const t of tables) await uncommitTable(idx, t);

      // Nothing committed in documents: a read open refuses the index (and says how to build it) and
      // deletes nothing; the half-written folders are the writer's to clean up.
      await assert.rejects(LanceStore.open(idx, { create: false }), /holds no documents yet; build it with "veracite index/);
      assert.ok(existsSync(join(idx, 'documents.lance', 'data')), 'a reader never deletes anything');

      for (const resume of [true, false]) {
        const store = await LanceStore.open(idx);
        const s = await ingestSource(store, file, { format: 'scifact', batchSize: 10, resume });
        assert.equal(s.skipped, 0);
        const stats = await store.stats();
        assert.equal(stats.documents, ids.length, `resume=${resume}: one row per id`);
        assert.equal((await store.getDocuments(ids)).length, ids.length);
        assert.ok((await store.searchText('cells', 3)).length > 0);
        await store.close();
      }
      const reader = await LanceStore.open(idx, { create: false });
      assert.equal((await reader.stats()).documents, ids.length);
      await reader.close();
    });
  }
});

describe('a kill during the text-index build', () => {
  it('resumes at the build instead of re-reading the source', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-ftskill-'));
    try {
      const { file, ids } = await sampleCorpus(dir, 40);
      const idx = join(dir, 'idx');
      const store = await LanceStore.open(idx);
      const dying = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop === 'buildTextIndex') return async () => Promise.reject(new Error('killed during the index build'));
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
      await assert.rejects(ingestSource(dying, file, { format: 'scifact', batchSize: 15 }), /killed/);
      await store.close();
      const again = await LanceStore.open(idx);
      const s = await ingestSource(again, file, { format: 'scifact', batchSize: 15 });
      assert.equal(s.resumedFrom, ids.length, 'every record was committed: only the index build is left');
      assert.equal(s.records, 0);
      const stats = await again.stats();
      assert.equal(stats.documents, ids.length);
      assert.ok(stats.textIndexed);
      assert.equal(await again.getCheckpoint(`scifact:${file}`), undefined, 'checkpoint cleared once the build finished');
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the embedding cache after a kill inside its first createTable', () => {
  it('opens as empty, stores vectors again and serves them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-embkill-'));
    try {
      const { EmbeddingCache } = await import('./embedding-cache.js');
      const embedder = {
        info: { id: 'len-2d', version: '1', backend: 'test' },
        dimension: 2,
        calls: 0,
        async embed(texts: string[]) {
          this.calls += texts.length;
          return texts.map((t) => Float32Array.from([t.length, 1]));
        },
      };
      const idx = join(dir, 'missing-yet');
      const cache = await EmbeddingCache.open(idx, embedder);
      assert.ok(!existsSync(idx), 'opening the cache creates nothing');
      await cache.embed(embedder, ['a', 'bb']);
      cache.close();
      const table = (await readdir(idx)).find((f) => f.startsWith('embcache_'))!.replace(/\.lance$/, '');
      await uncommitTable(idx, table);
      const again = await EmbeddingCache.open(idx, embedder);
      const v = await again.embed(embedder, ['a', 'bb', 'ccc']);
      assert.deepEqual(v.map((x) => x[0]), [1, 2, 3]);
      assert.equal(embedder.calls, 5, 'nothing committed before the kill, so all three are embedded again');
      again.close();
      const third = await EmbeddingCache.open(idx, embedder);
      await third.embed(embedder, ['a', 'bb', 'ccc']);
      assert.equal(embedder.calls, 5, 'served from the recreated cache');
      third.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
