/**
 * The Store contract: one node:test suite that states what every Store engine must do, run against each
 * engine (store-contract.test.ts: the in-memory store and LanceDB always, OpenSearch when OPENSEARCH_URL
 * is set). Inputs are the shipped SciFact sample and documents made here; expectations come from the
 * sample itself (sentence lists, passage chunking) and from what BM25 and cosine search must do.
 */
import { unfinishedIngests } from '../unfinished-ingest.js';
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { chunkPassages } from '../../corpus/passages.js';
import type { Document } from '../../corpus/types.js';
import type { Embedder } from '../../models/types.js';
import { embedMissing, type VectorBackfillStore } from '../dense-backfill.js';
import { ingestSource } from '../ingest.js';

export const SCIFACT_SAMPLE = 'data/samples/scifact/corpus.jsonl';
const CLAIMS = 'data/samples/scifact/claims_dev.jsonl';

export interface StoreHarness {
  /** A new, empty store; every call a separate one. */
  create(): Promise<VectorBackfillStore>;
  /** The same data through a new handle (engines that persist); omitted for in-memory engines. */
  reopen?(store: VectorBackfillStore): Promise<VectorBackfillStore>;
  /** Runs once after the suite (remove directories, indices). */
  cleanup?(): Promise<void>;
  /** The engine cannot change its vectors' dimension in place (OpenSearch's mapping): re-embedding is refused, saying so. */
  fixedVectorField?: boolean;
}

/** Vowel-frequency vectors (5-d): another model, of another dimension, than LetterEmbedder. */
class VowelEmbedder implements Embedder {
  readonly info = { id: 'vowels-5d', version: '1', backend: 'test' };
  readonly dimension = 5;
  texts = 0;
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    return texts.map((t) => {
      const v = new Float32Array(5).fill(0.01);
      for (const ch of t.toLowerCase()) {
        const i = 'aeiou'.indexOf(ch);
        if (i >= 0) v[i]! += 1;
      }
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    });
  }
}

/** Letter-frequency vectors (8-d, L2-normalised): texts sharing letters are near each other. */
export class LetterEmbedder implements Embedder {
  readonly info = { id: 'letters-8d', version: '1', backend: 'test' };
  readonly dimension = 8;
  texts = 0;
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts += texts.length;
    return texts.map((t) => {
      const v = new Float32Array(8);
      for (const ch of t.toLowerCase()) v[ch.charCodeAt(0) % 8]! += 1;
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  }
}

/** A BM25 ranking, to compare before and after vectors are written. */
async function bm25Ranking(store: VectorBackfillStore): Promise<{ id: string; score: number }[]> {
  return (await store.searchText('cells', 5)).map((h) => ({ id: h.passage.id, score: h.score }));
}

/**
 * The same ranking and scores within 0.5%: writing vectors must leave BM25 as it was. (OpenSearch counts a
 * replaced document in its term statistics until segments merge, which moves scores by ~0.1%; a text
 * index that no longer covers the rewritten rows moved them by 1.3% on LanceDB.)
 */
function sameBm25(after: { id: string; score: number }[], before: { id: string; score: number }[]): void {
  assert.deepEqual(after.map((h) => h.id), before.map((h) => h.id), 'BM25 ranks as before the vectors were written');
  after.forEach((h, i) => assert.ok(Math.abs(h.score - before[i]!.score) <= 0.005 * before[i]!.score, `BM25 score of ${h.id}: ${h.score} after, ${before[i]!.score} before`));
}

interface SampleRecord {
  doc_id: number;
  title: string;
  abstract: string[];
}

async function sample(): Promise<SampleRecord[]> {
  return (await readFile(SCIFACT_SAMPLE, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as SampleRecord);
}

function asDocument(r: SampleRecord): Document {
  return { id: String(r.doc_id), title: r.title, sentences: r.abstract };
}

/**
 * Declares the contract suite for one engine. Pass `{ skip: reason }` when the engine cannot run here
 * (node:test then reports the suite as skipped, with the reason).
 */
export function describeStoreContract(name: string, harness: StoreHarness | { skip: string }): void {
  if ('skip' in harness) {
    describe(`Store contract: ${name}`, { skip: harness.skip }, () => {
      it('is skipped', () => undefined);
    });
    return;
  }
  describe(`Store contract: ${name}`, () => {
    after(async () => harness.cleanup?.());

    describe('on the SciFact sample', () => {
      let store: VectorBackfillStore;
      let records: SampleRecord[];
      before(async () => {
        records = await sample();
        store = await harness.create();
        await ingestSource(store, SCIFACT_SAMPLE, { format: 'scifact', batchSize: 200 });
      });
      after(async () => store.close());

      it('counts documents, passages and sentences, and reports the text index', async () => {
        const stats = await store.stats();
        assert.equal(stats.documents, records.length);
        assert.equal(stats.passages, records.reduce((n, r) => n + chunkPassages(asDocument(r)).length, 0));
        assert.equal(stats.sentences, records.reduce((n, r) => n + r.abstract.length, 0));
        assert.equal(stats.textIndexed, true);
      });

      it('returns documents by id in the order asked, unknown ids left out, sentences as given', async () => {
        const [a, b] = [records[7]!, records[3]!];
        const docs = await store.getDocuments([String(a.doc_id), 'no-such-id', String(b.doc_id)]);
        assert.deepEqual(docs.map((d) => d.id), [String(a.doc_id), String(b.doc_id)]);
        assert.deepEqual(docs[0]!.sentences, a.abstract);
        assert.equal(docs[1]!.title, b.title);
      });

      it("returns a document's passages in order, as chunkPassages made them", async () => {
        const long = records.reduce((best, r) => (chunkPassages(asDocument(r)).length > chunkPassages(asDocument(best)).length ? r : best));
        const passages = await store.getPassages(String(long.doc_id));
        assert.ok(passages.length >= 2, 'the longest sample abstract has several passages');
        assert.deepEqual(passages, chunkPassages(asDocument(long)));
        assert.deepEqual(await store.getPassages('no-such-id'), []);
      });

      it('ranks with BM25: the cited abstract of most real claims in the top 30, scores descending, k respected', async () => {
        const claims = (await readFile(CLAIMS, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { claim: string; cited_doc_ids: number[] });
        let found = 0;
        for (const c of claims.slice(0, 40)) {
          const hits = await store.searchText(c.claim, 30);
          assert.ok(hits.length <= 30);
          if (hits.some((h) => c.cited_doc_ids.map(String).includes(h.passage.docId))) found++;
          for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'hits sorted by score');
          for (const h of hits) assert.ok(h.score > 0);
        }
        // BM25 finds the cited abstract for most SciFact claims (Recall@100 ~0.9 on the full set).
        assert.ok(found >= 28, `cited abstract found for ${found}/40 claims`);
        assert.equal((await store.searchText('cells', 5)).length, 5);
        assert.deepEqual(await store.searchText('', 5), []);
      });

      it('analyses English like the LanceDB index: stems, drops stop words, folds accents, matches titles', async () => {
        const doc = { id: 'analysis-1', title: 'Quokka sanctuaries', sentences: ['The café served naïve wombats who were running quickly.'] };
        await store.upsert([{ doc, passages: chunkPassages(doc) }]);
        assert.equal((await store.searchText('cafe naive', 3))[0]?.passage.docId, 'analysis-1', 'ASCII folding');
        assert.equal((await store.searchText('wombat runs', 3))[0]?.passage.docId, 'analysis-1', 'stemming');
        assert.equal((await store.searchText('sanctuary', 3))[0]?.passage.docId, 'analysis-1', 'the title is indexed with the text');
        assert.deepEqual(await store.searchText('the of and this', 3), [], 'a query of stop words matches nothing');
      });

      it('streams every passage text exactly once', async () => {
        const seen: string[] = [];
        for await (const batch of store.passageTexts()) seen.push(...batch);
        const expected: string[] = [];
        for (const r of records) for (const p of await store.getPassages(String(r.doc_id))) expected.push(p.text);
        expected.push(...(await store.getPassages('analysis-1')).map((p) => p.text));
        assert.deepEqual(seen.sort(), expected.sort());
      });

      it('keeps its snapshot id without writes and changes it on every write', async () => {
        const s1 = await store.snapshot();
        await store.searchText('cells', 3);
        await store.getDocuments([String(records[0]!.doc_id)]);
        assert.equal(await store.snapshot(), s1);
        const doc = { id: 'snap-1', title: 'Snapshot', sentences: ['One write.'] };
        await store.upsert([{ doc, passages: chunkPassages(doc) }]);
        const s2 = await store.snapshot();
        assert.notEqual(s2, s1);
        await store.upsert([{ doc, passages: chunkPassages(doc) }]);
        assert.notEqual(await store.snapshot(), s2, 'rewriting the same document is a write too');
      });

      it('replaces a re-written document everywhere: sentences, passages, search, counts', async () => {
        const before = await store.stats();
        const id = String(records[3]!.doc_id);
        const doc = { id, title: 'Zebrafish regeneration of quokka hearts', sentences: ['Quokkas were observed regenerating cardiac tissue.'] };
        await store.upsert([{ doc, passages: chunkPassages(doc) }]);
        const [got] = await store.getDocuments([id]);
        assert.deepEqual(got!.sentences, doc.sentences);
        assert.deepEqual(await store.getPassages(id), chunkPassages(doc));
        const hits = await store.searchText('quokka cardiac regenerating', 5);
        assert.equal(hits[0]!.passage.docId, id);
        const after = await store.stats();
        assert.equal(after.documents, before.documents);
        assert.equal(after.passages, before.passages - chunkPassages(asDocument(records[3]!)).length + 1);
      });

      it('never duplicates: the same batch twice, or an id twice in one batch (the last wins)', async () => {
        const before = await store.stats();
        const batch = records.slice(10, 20).map((r) => ({ doc: asDocument(r), passages: chunkPassages(asDocument(r)) }));
        await store.upsert(batch);
        await store.upsert(batch);
        assert.deepEqual(await store.stats(), before);
        const id = 'dup-1';
        const first = { id, title: 'First', sentences: ['First version.'] };
        const second = { id, title: 'Second', sentences: ['Second version.', 'Two sentences.'] };
        await store.upsert([{ doc: first, passages: chunkPassages(first) }, { doc: second, passages: chunkPassages(second) }]);
        assert.deepEqual((await store.getDocuments([id])).map((d) => d.title), ['Second']);
        assert.equal((await store.stats()).documents, before.documents + 1);
      });

      it('finds documents by normalised base title and by normalised URL', async () => {
        const doc = { id: 'film-1', title: 'Soul Food (film)', url: 'https://www.example.org/films/soul-food/?utm_source=x', sentences: ['Soul Food is a 1997 film.'] };
        const other = { id: 'film-2', title: 'Soul_Food_-LRB-album-RRB-', sentences: ['An album.'] };
        await store.upsert([doc, other].map((d) => ({ doc: d, passages: chunkPassages(d) })));
        const titles = await store.findTitles(['soul food', 'no such title']);
        assert.deepEqual(titles.map((t) => t.id).sort(), ['film-1', 'film-2']);
        assert.ok(titles.every((t) => t.key === 'soul food'));
        const byUrl = await store.findDocumentsByUrl('http://example.org/films/soul-food');
        assert.deepEqual(byUrl.map((d) => d.id), ['film-1']);
        assert.equal(byUrl[0]!.url, doc.url);
        assert.deepEqual(await store.findDocumentsByUrl('https://example.org/other'), []);
      });

      it('stores, overwrites and clears ingest checkpoints per source', async () => {
        const cp = { source: 'jsonl:/data/a.jsonl', records: 200, updatedAt: new Date().toISOString(), fingerprint: 'abc', maxWords: 100 };
        assert.equal(await store.getCheckpoint(cp.source), undefined);
        await store.setCheckpoint(cp);
        await store.setCheckpoint({ ...cp, source: 'jsonl:/data/b.jsonl', records: 7 });
        await store.setCheckpoint({ ...cp, records: 400 });
        assert.equal((await store.getCheckpoint(cp.source))?.records, 400);
        assert.equal((await store.getCheckpoint('jsonl:/data/b.jsonl'))?.records, 7);
        // Each one left is an unfinished ingest, which every search and health report (issue 45).
        assert.deepEqual((await unfinishedIngests(store)).map((u) => `${u.format}:${u.source}:${u.records}`).sort(), ['jsonl:/data/a.jsonl:400', 'jsonl:/data/b.jsonl:7']);
        await store.clearCheckpoint(cp.source);
        assert.equal(await store.getCheckpoint(cp.source), undefined);
        assert.equal((await store.getCheckpoint('jsonl:/data/b.jsonl'))?.records, 7);
        assert.deepEqual((await unfinishedIngests(store)).map((u) => u.source), ['/data/b.jsonl']);
      });

      it('records settings', async () => {
        await store.setSetting('embedder', { id: 'x', version: '1', backend: 'test' });
        assert.deepEqual(store.settings['embedder'], { id: 'x', version: '1', backend: 'test' });
        assert.equal(typeof store.engine, 'string');
      });

      if (harness.reopen) {
        it('keeps data, settings, checkpoints and snapshot when opened again', async () => {
          const stats = await store.stats();
          const snap = await store.snapshot();
          const again = await harness.reopen!(store);
          try {
            assert.deepEqual(await again.stats(), stats);
            assert.equal(await again.snapshot(), snap);
            assert.deepEqual(again.settings['embedder'], { id: 'x', version: '1', backend: 'test' });
            assert.equal((await again.getCheckpoint('jsonl:/data/b.jsonl'))?.records, 7);
            assert.deepEqual((await unfinishedIngests(again)).map((u) => u.source), ['/data/b.jsonl'], 'a second handle sees the unfinished ingest');
            assert.equal((await again.searchText('quokka cardiac', 1))[0]?.passage.docId, String(records[3]!.doc_id));
          } finally {
            await again.close();
          }
        });
      }
    });

    describe('vectors', () => {
      let records: SampleRecord[];
      before(async () => {
        records = (await sample()).slice(0, 60);
      });

      it('without vectors: no dimension and no vector hits', async () => {
        const store = await harness.create();
        try {
          const doc = asDocument(records[0]!);
          await store.upsert([{ doc, passages: chunkPassages(doc) }]);
          assert.equal(await store.vectorDimension(), undefined);
          assert.deepEqual(await store.searchVector(new Float32Array(8).fill(0.35), 5), []);
          assert.equal((await store.passageVectors([`${doc.id}#0`])).size, 0);
        } finally {
          await store.close();
        }
      });

      it('searches by cosine similarity: a passage finds itself first with score 1, scale does not matter', async () => {
        const store = await harness.create();
        try {
          const embedder = new LetterEmbedder();
          const items = records.map((r) => ({ doc: asDocument(r), passages: chunkPassages(asDocument(r)) }));
          for (const item of items) (item as { vectors?: Float32Array[] }).vectors = await embedder.embed(item.passages.map((p) => `${p.title}\n${p.text}`));
          await store.upsert(items);
          await store.buildTextIndex();
          await store.buildVectorIndex();
          assert.equal(await store.vectorDimension(), 8);
          const target = items[5]!.passages[0]!;
          const [q] = await embedder.embed([`${target.title}\n${target.text}`]);
          const hits = await store.searchVector(q!, 10);
          assert.equal(hits.length, 10);
          assert.equal(hits[0]!.passage.id, target.id);
          assert.ok(Math.abs(hits[0]!.score - 1) < 1e-4, `self-similarity ${hits[0]!.score}`);
          for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score - 1e-6);
          const scaled = await store.searchVector(q!.map((x) => x * 3), 10);
          assert.deepEqual(scaled.map((h) => h.passage.id).slice(0, 3), hits.map((h) => h.passage.id).slice(0, 3));
          assert.ok(Math.abs(scaled[0]!.score - 1) < 1e-4, 'cosine, not dot product');
          const stored = await store.passageVectors([target.id, 'no-such#0']);
          assert.deepEqual([...stored.keys()], [target.id]);
          assert.equal(stored.get(target.id)!.text, target.text);
          assert.ok(stored.get(target.id)!.vector.every((x, i) => Math.abs(x - q![i]!) < 1e-6));
        } finally {
          await store.close();
        }
      });

      it('adds vectors to a BM25-only index: only passages without one, resumable after an interruption', async () => {
        const store = await harness.create();
        try {
          const items = records.map((r) => ({ doc: asDocument(r), passages: chunkPassages(asDocument(r)) }));
          await store.upsert(items);
          await store.buildTextIndex();
          const total = items.reduce((n, i) => n + i.passages.length, 0);
          const bm25Before = await bm25Ranking(store);
          const embedder = new LetterEmbedder();
          const stop = new AbortController();
          const first = await embedMissing(store, embedder, { batchSize: 25, signal: stop.signal, onProgress: () => stop.abort() });
          assert.equal(first.interrupted, true);
          assert.equal(first.embedded, 25);
          assert.deepEqual(await store.vectorCounts(), { withVector: 25, total });
          assert.deepEqual(store.settings['embedder'], embedder.info);
          const rest = await embedMissing(store, embedder, { batchSize: 25 });
          assert.equal(rest.interrupted, false);
          assert.equal(rest.alreadyEmbedded, 25);
          assert.equal(rest.embedded, total - 25);
          assert.equal(embedder.texts, total, 'no passage embedded twice');
          assert.deepEqual(await store.vectorCounts(), { withVector: total, total });
          assert.equal((await embedMissing(store, embedder)).embedded, 0);
          const target = items[2]!.passages[0]!;
          const [q] = await embedder.embed([`${target.title}\n${target.text}`]);
          assert.equal((await store.searchVector(q!, 1))[0]!.passage.id, target.id);
          assert.equal((await store.searchText('cells', 3)).length, 3, 'text search still works after vectors were added');
          sameBm25(await bm25Ranking(store), bm25Before);
          const other = { ...new LetterEmbedder(), info: { id: 'other', version: '2', backend: 'test' }, dimension: 8, embed: embedder.embed.bind(embedder) };
          await assert.rejects(embedMissing(store, other), /would mix two vector spaces/);
        } finally {
          await store.close();
        }
      });

      it('re-embeds with another model of another dimension: old vectors dropped, the new model recorded, resumable; BM25 untouched', async () => {
        const store = await harness.create();
        try {
          const items = records.slice(0, 20).map((r) => ({ doc: asDocument(r), passages: chunkPassages(asDocument(r)) }));
          await store.upsert(items);
          await store.buildTextIndex();
          const total = items.reduce((n, i) => n + i.passages.length, 0);
          await embedMissing(store, new LetterEmbedder());
          assert.equal(await store.vectorDimension(), 8);
          const bm25Before = await bm25Ranking(store);
          const vowels = new VowelEmbedder();
          if (harness.fixedVectorField) {
            await assert.rejects(embedMissing(store, vowels, { reembed: true }), /cannot change the vectors of an index in place.*new index/);
            assert.equal(await store.vectorDimension(), 8, 'the old vectors are kept when re-embedding is refused');
            return;
          }
          const stop = new AbortController();
          const first = await embedMissing(store, vowels, { reembed: true, batchSize: 10, signal: stop.signal, onProgress: () => stop.abort() });
          assert.deepEqual([first.reembedded, first.interrupted, first.embedded, first.alreadyEmbedded], [true, true, 10, 0]);
          assert.equal(await store.vectorDimension(), 5);
          assert.deepEqual(store.settings['embedder'], vowels.info);
          assert.deepEqual(await store.vectorCounts(), { withVector: 10, total });
          // Resumed as an ordinary backfill: the new model is the recorded one now.
          const rest = await embedMissing(store, vowels, { reembed: true });
          assert.deepEqual([rest.reembedded, rest.embedded, rest.alreadyEmbedded], [undefined, total - 10, 10]);
          assert.equal(vowels.texts, total, 'no passage embedded twice');
          const target = items[3]!.passages[0]!;
          const [q] = await vowels.embed([`${target.title}\n${target.text}`]);
          const hit = (await store.searchVector(q!, 1))[0]!;
          assert.ok(Math.abs(hit.score - 1) < 1e-4, `the nearest passage is the query's own vector (score ${hit.score})`);
          sameBm25(await bm25Ranking(store), bm25Before);
          await assert.rejects(embedMissing(store, new LetterEmbedder()), /would mix two vector spaces/);
          // A re-embed stopped right after dropping the vectors leaves the old record alone: it mixes with nothing.
          await store.dropVectors();
          const fresh = await embedMissing(store, new LetterEmbedder());
          assert.deepEqual([fresh.embedded, store.settings['embedder']], [total, new LetterEmbedder().info]);
        } finally {
          await store.close();
        }
      });
    });
  });
}
