import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { RecordError } from '../corpus/types.js';
import { chunkPassages } from '../corpus/passages.js';
import { EmbeddingCache } from './embedding-cache.js';
import { ingestSource } from './ingest.js';
import { LanceStore } from './lancedb-store.js';
import { MANIFEST_FILE } from './manifest.js';
import type { Embedder } from '../models/types.js';

const SAMPLE = 'data/samples/scifact/corpus.jsonl';
const CLAIMS = 'data/samples/scifact/claims_dev.jsonl';

async function sampleLines(): Promise<string[]> {
  return (await readFile(SAMPLE, 'utf8')).split('\n').filter((l) => l.trim());
}

describe('LanceStore on the SciFact sample', () => {
  let dir: string;
  let store: LanceStore;
  let lines: string[];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-store-'));
    lines = await sampleLines();
    store = await LanceStore.open(join(dir, 'idx'));
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests every abstract with its sentences kept as given', async () => {
    const s = await ingestSource(store, SAMPLE, { format: 'scifact', batchSize: 200 });
    assert.equal(s.documents, lines.length);
    assert.equal(s.skipped, 0);
    const stats = await store.stats();
    assert.equal(stats.documents, lines.length);
    assert.equal(stats.passages, s.passages);
    assert.ok(stats.textIndexed);
    const first = JSON.parse(lines[0]!) as { doc_id: number; abstract: string[] };
    const [doc] = await store.getDocuments([String(first.doc_id)]);
    assert.deepEqual(doc!.sentences, first.abstract);
    const passages = await store.getPassages(String(first.doc_id));
    assert.deepEqual(passages, chunkPassages(doc!, { maxWords: 100 }));
  });

  it('finds the cited abstract of real claims with BM25', async () => {
    const claims = (await readFile(CLAIMS, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { claim: string; cited_doc_ids: number[] });
    let found = 0;
    for (const c of claims.slice(0, 40)) {
      const hits = await store.searchText(c.claim, 30);
      if (hits.some((h) => c.cited_doc_ids.map(String).includes(h.passage.docId))) found++;
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'hits sorted by score');
    }
    // BM25 finds the cited abstract for most SciFact claims (Recall@100 ~0.9 on the full set).
    assert.ok(found >= 28, `cited abstract found for ${found}/40 claims`);
  });

  it('re-ingesting replaces instead of duplicating, and the snapshot changes', async () => {
    const before = await store.stats();
    const snap = await store.snapshot();
    await ingestSource(store, SAMPLE, { format: 'scifact', batchSize: 500 });
    const afterStats = await store.stats();
    assert.equal(afterStats.documents, before.documents);
    assert.equal(afterStats.passages, before.passages);
    assert.notEqual(await store.snapshot(), snap);
  });

  it('an upsert of a changed document updates its text everywhere', async () => {
    const id = String((JSON.parse(lines[3]!) as { doc_id: number }).doc_id);
    const doc = { id, title: 'Zebrafish regeneration of quokka hearts', sentences: ['Quokkas were observed regenerating cardiac tissue.'] };
    await store.upsert([{ doc, passages: chunkPassages(doc) }]);
    const [got] = await store.getDocuments([id]);
    assert.deepEqual(got!.sentences, doc.sentences);
    assert.equal((await store.getPassages(id)).length, 1);
    const hits = await store.searchText('quokka cardiac regenerating', 5);
    assert.equal(hits[0]!.passage.docId, id);
    assert.equal((await store.stats()).documents, lines.length);
  });

  it('looks documents up by title key and by normalised URL', async () => {
    const doc = { id: 'film-1', title: 'Soul Food (film)', url: 'https://www.example.org/films/soul-food/?utm_source=x', sentences: ['Soul Food is a 1997 film.'] };
    await store.upsert([{ doc, passages: chunkPassages(doc) }]);
    const titles = await store.findTitles(['soul food']);
    assert.deepEqual(titles.map((t) => t.id), ['film-1']);
    const byUrl = await store.findDocumentsByUrl('http://example.org/films/soul-food');
    assert.deepEqual(byUrl.map((d) => d.id), ['film-1']);
  });

  it('a reader with its own index cache size serves the same results; a size that is not positive is refused', async () => {
    await store.buildTextIndex();
    const reader = await LanceStore.open(join(dir, 'idx'), { readOnly: true, indexCacheBytes: 64 * 2 ** 20 });
    try {
      const mine = await reader.searchText('vitamin D deficiency fractures', 5);
      const theirs = await store.searchText('vitamin D deficiency fractures', 5);
      assert.deepEqual(mine.map((h) => h.passage.id), theirs.map((h) => h.passage.id));
      const use = reader.indexCacheUse();
      assert.ok(use && Number.isInteger(use.bytes) && use.bytes <= 64 * 2 ** 20, `cache use within its size: ${JSON.stringify(use)}`);
      assert.equal(store.indexCacheUse(), undefined, 'LanceDB default session: nothing to report');
    } finally {
      await reader.close();
    }
    await assert.rejects(LanceStore.open(join(dir, 'idx'), { readOnly: true, indexCacheBytes: 0 }), /index cache size must be a positive number of bytes/);
  });
});

describe('ingest errors', () => {
  it('skips a malformed line (counted, named by file and line) or stops and keeps what came before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-bad-'));
    try {
      const good = (await sampleLines()).slice(0, 30);
      const bad = [...good.slice(0, 10), '{"doc_id": 1, "title": "x", "abstract": "not a list"}', '{broken', ...good.slice(10)];
      const file = join(dir, 'bad.jsonl');
      await writeFile(file, bad.join('\n') + '\n');
      const skipStore = await LanceStore.open(join(dir, 'skip'));
      const s = await ingestSource(skipStore, file, { format: 'scifact', onError: 'skip', batchSize: 7 });
      assert.equal(s.skipped, 2);
      assert.equal(s.documents, 30);
      assert.match(s.errors[0]!, /bad\.jsonl:11 field "abstract"/);
      assert.match(s.errors[1]!, /bad\.jsonl:12/);
      await skipStore.close();

      const stopStore = await LanceStore.open(join(dir, 'stop'));
      await assert.rejects(ingestSource(stopStore, file, { format: 'scifact', onError: 'stop', batchSize: 4 }), (e: unknown) => e instanceof RecordError && e.line === 11);
      assert.equal((await stopStore.stats()).documents, 10, 'the 10 records before the bad one are kept');
      await stopStore.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('crash safety', () => {
  it('after kill -9 mid-ingest the index is usable and the next run resumes without duplicates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-kill-'));
    const idx = join(dir, 'idx');
    const corpus = join(dir, 'corpus.jsonl');
    await copyFile(SAMPLE, corpus);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/store/ingest-child.ts', idx, corpus, 'scifact'], { stdio: 'ignore' });
      // Wait until at least three batches are committed, then kill without warning.
      const deadline = Date.now() + 60_000;
      let committed = 0;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          const m = JSON.parse(await readFile(join(idx, MANIFEST_FILE), 'utf8')) as { checkpoints: Record<string, { records: number }> };
          committed = Object.values(m.checkpoints)[0]?.records ?? 0;
        } catch {
          /* manifest not written yet */
        }
        if (committed >= 120) break;
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      assert.ok(committed >= 120, `child committed ${committed} records before the kill`);

      const store = await LanceStore.open(idx);
      const mid = await store.stats();
      assert.ok(mid.documents >= committed && mid.documents < (await sampleLines()).length, `partial index: ${mid.documents} docs`);
      assert.ok((await store.searchText('cells', 5)).length > 0, 'the interrupted index answers queries');
      const s = await ingestSource(store, corpus, { format: 'scifact', batchSize: 100 });
      assert.ok(s.resumedFrom >= committed, `resumed from ${s.resumedFrom}`);
      const total = (await sampleLines()).length;
      const final = await store.stats();
      assert.equal(final.documents, total);
      const ids = (await store.getDocuments((await sampleLines()).map((l) => String((JSON.parse(l) as { doc_id: number }).doc_id)))).length;
      assert.equal(ids, total);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('vectors', () => {
  class CountingEmbedder implements Embedder {
    readonly info = { id: 'letters-8d', version: '1', backend: 'test' };
    readonly dimension = 8;
    calls = 0;
    texts = 0;
    async embed(texts: string[]): Promise<Float32Array[]> {
      this.calls++;
      this.texts += texts.length;
      // Letter-frequency vectors: texts sharing letters are near each other.
      return texts.map((t) => {
        const v = new Float32Array(8);
        for (const ch of t.toLowerCase()) v[ch.charCodeAt(0) % 8]! += 1;
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      });
    }
  }

  it('stores vectors with passages, searches them exactly, and caches embeddings across re-indexing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-vec-'));
    try {
      const file = join(dir, 'c.jsonl');
      await writeFile(file, (await sampleLines()).slice(0, 60).join('\n') + '\n');
      const store = await LanceStore.open(join(dir, 'idx'));
      const embedder = new CountingEmbedder();
      const cache = await EmbeddingCache.open(join(dir, 'idx'), embedder);
      const s = await ingestSource(store, file, { format: 'scifact', embedder, embeddingCache: cache, batchSize: 25 });
      assert.equal(s.vectorIndex, 'exact');
      assert.equal(await store.vectorDimension(), 8);
      assert.equal(embedder.texts, s.passages);
      const passages = await store.getPassages(String((JSON.parse((await sampleLines())[5]!) as { doc_id: number }).doc_id));
      const [q] = await embedder.embed([`${passages[0]!.title}\n${passages[0]!.text}`]);
      const hits = await store.searchVector(q!, 3);
      assert.equal(hits[0]!.passage.id, passages[0]!.id);
      assert.ok(Math.abs(hits[0]!.score - 1) < 1e-5);
      const before = embedder.texts;
      await ingestSource(store, file, { format: 'scifact', embedder, embeddingCache: cache, batchSize: 25 });
      assert.equal(embedder.texts, before, 're-indexing unchanged text embeds nothing new');
      assert.equal((await store.vectorCounts()).withVector, s.passages);
      cache.close();
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
