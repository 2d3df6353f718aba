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

/**
 * Issue 27, defect 5: a re-index used to delete a batch's rows (in chunks of 500, each its own commit) and
 * then add the new rows, so a kill after the deletes lost documents that were never removed from the
 * source, and a reader in between missed them. Now each table changes in one commit (merge insert).
 */
describe('a re-index replaces each batch in one commit per table', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-reidx-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The same ids with shorter, changed abstracts: fewer passages per document, each text marked "revised". */
  async function revisedCorpus(file: string): Promise<string> {
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
    const out = file.replace(/\.jsonl$/, '-revised.jsonl');
    const revised = lines.map((l) => {
      const r = JSON.parse(l) as { abstract: string[] };
      r.abstract = [`Revised: ${r.abstract[0] ?? ''}`];
      return JSON.stringify(r);
    });
    await writeFile(out, revised.join('\n') + '\n');
    return out;
  }

  /** Every id has a document row, and each document's passages are all of one version (old or revised). */
  async function checkWhole(idx: string, ids: string[], oldPassages: Map<string, number>): Promise<{ revised: number }> {
    const reader = await LanceStore.open(idx, { readOnly: true });
    try {
      assert.equal((await reader.getDocuments(ids)).length, ids.length, 'no document lost');
      assert.equal((await reader.stats()).documents, ids.length);
      let revised = 0;
      for (const id of ids) {
        const ps = await reader.getPassages(id);
        const kinds = new Set(ps.map((p) => p.text.startsWith('Revised:')));
        assert.equal(kinds.size, 1, `document ${id}: passages of one version only`);
        if (kinds.has(true)) {
          revised++;
          assert.equal(ps.length, 1, `document ${id}: the revised version's single passage, the old ones gone`);
        } else assert.equal(ps.length, oldPassages.get(id), `document ${id}: every old passage kept`);
      }
      return { revised };
    } finally {
      await reader.close();
    }
  }

  for (const dies of ['passages', 'documents'] as const) {
    it(`a kill before the ${dies} commit of a --no-resume re-index loses no document; the rerun finishes it`, async () => {
      const { file, ids } = await sampleCorpus(dir, 40);
      const idx = join(dir, `idx-${dies}`);
      const first = await LanceStore.open(idx);
      await ingestSource(first, file, { format: 'scifact', batchSize: 10 });
      const oldPassages = new Map<string, number>();
      for (const id of ids) oldPassages.set(id, (await first.getPassages(id)).length);
      await first.close();
      const revised = await revisedCorpus(file);

      // `index --no-resume` over the complete index; the process dies as its first batch writes `dies`.
      const store = await LanceStore.open(idx, { lock: 'open' });
      const fields = store as unknown as Record<string, object>;
      fields[dies] = new Proxy(fields[dies]!, {
        get(target, prop) {
          if (prop === 'add' || prop === 'mergeInsert')
            return () => {
              throw new Error(`killed before the ${dies} commit`);
            };
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      await assert.rejects(ingestSource(store, revised, { format: 'scifact', batchSize: 10, resume: false }), /killed/);
      await store.close();

      const seen = await checkWhole(idx, ids, oldPassages);
      // Passages commit before documents: a kill between them leaves the batch's new passages under the old
      // document rows (the batch the checkpoint does not cover yet, re-written by the next run).
      assert.equal(seen.revised, dies === 'documents' ? 10 : 0);

      const again = await LanceStore.open(idx, { lock: 'open' });
      const s = await ingestSource(again, revised, { format: 'scifact', batchSize: 10 });
      assert.equal(s.indexed, ids.length);
      assert.equal(s.replaced, ids.length, 'every id replaced an existing row');
      await again.close();
      assert.equal((await checkWhole(idx, ids, oldPassages)).revised, ids.length);
      const reader = await LanceStore.open(idx, { readOnly: true });
      assert.equal((await reader.stats()).passages, ids.length, 'one passage per revised document: no old passage left over');
      const docs = await reader.getDocuments(ids);
      assert.ok(docs.every((d) => d.sentences.length === 1 && d.sentences[0]!.startsWith('Revised:')));
      await reader.close();
    });
  }

  it('a reader during a re-index always sees every document', async () => {
    const { file, ids } = await sampleCorpus(dir, 120);
    const idx = join(dir, 'idx-reader');
    const first = await LanceStore.open(idx);
    await ingestSource(first, file, { format: 'scifact', batchSize: 20 });
    await first.close();
    const revised = await revisedCorpus(file);

    const reader = await LanceStore.open(idx, { readOnly: true, refreshSeconds: 0 });
    const writer = await LanceStore.open(idx, { lock: 'open' });
    let done = false;
    const counts: number[] = [];
    const snapshots = new Set<string>();
    const polling = (async () => {
      while (!done) {
        counts.push((await reader.getDocuments(ids)).length);
        snapshots.add(await reader.snapshot());
      }
    })();
    await ingestSource(writer, revised, { format: 'scifact', batchSize: 5, resume: false, buildIndex: false });
    done = true;
    await polling;
    await writer.close();
    await reader.close();
    assert.ok(snapshots.size > 3, `the reader saw the re-index in progress (${snapshots.size} snapshots, ${counts.length} reads)`);
    assert.equal(Math.min(...counts), ids.length, `every read found all ${ids.length} documents`);
  });
});
