import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ingestSource } from '../store/ingest.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { prepareDocument } from '../corpus/prepare.js';
import type { Document } from '../corpus/types.js';
import { Bm25Stats } from '../text/bm25-stats.js';
import { RANK_FEATURES, rankFeatures, type RankQuery } from './rank-features.js';
import { hashEmbedder } from '../models/testing/hash-embedder.js';

// The audit fixture corpus: a fictional lighthouse article's claims and the pages they cite.
const docs: Document[] = readFileSync('test/fixtures/audit/pendrick-corpus.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => {
    const r = JSON.parse(l) as { id: string; title: string; text: string };
    return prepareDocument({ id: r.id, title: r.title, text: r.text });
  });
const byId = (id: string) => docs.find((d) => d.id === id)!;
const stats = Bm25Stats.build(docs.map((d) => d.sentences.join(' ')));
const col = (f: (typeof RANK_FEATURES)[number]) => RANK_FEATURES.indexOf(f);

const claim: RankQuery = {
  claim: 'The tower is 26 metres tall and painted white.',
  context: ['Pendrick Lighthouse is a lighthouse on Pendrick Point in Cornwall.'],
  articleTitle: 'Pendrick Lighthouse',
  sectionPath: ['History'],
};

describe('rank features', () => {
  it("separate the page that states the claim from the article's other cited pages", async () => {
    const cands = ['towers-pendrick', 'history-1859', 'lights-pendrick', 'garden-roses'].map((id) => ({ doc: byId(id), engineScore: 0.5 }));
    const rows = await rankFeatures(claim, cands, { stats, embedder: hashEmbedder });
    assert.equal(rows.length, 4);
    for (const r of rows) assert.equal(r.length, RANK_FEATURES.length);
    const [tower, history, lights, roses] = rows as [number[], number[], number[], number[]];
    for (const f of ['claimBm25', 'claimCoverDocument', 'claimCoverPassage', 'dense'] as const) {
      assert.ok(tower[col(f)]! > Math.max(history[col(f)]!, lights[col(f)]!, roses[col(f)]!), `${f}: ${rows.map((r) => r[col(f)])}`);
    }
    assert.equal(tower[col('numbers')], 1, '"26" is on the tower page');
    assert.equal(history[col('numbers')], 0);
    // Every page about the lighthouse matches the context; the rose page matches nothing.
    assert.ok(lights[col('contextCoverDocument')]! > 0.5 && roses[col('contextCoverDocument')] === 0);
    assert.equal(roses[col('sparse')], 0);
    assert.ok(rows.every((r) => r[col('engine')] === 0.5));
  });

  it('score a page without text (or without an engine score) as zeros, not NaN', async () => {
    const empty: Document = { id: 'x', title: '', sentences: [] };
    const [row] = await rankFeatures(claim, [{ doc: empty, engineScore: undefined }], { stats, embedder: hashEmbedder });
    assert.deepEqual(row, RANK_FEATURES.map(() => 0));
  });

  it('give a document the same row alone or among others (no list-relative feature)', async () => {
    const all = await rankFeatures(claim, docs.map((doc) => ({ doc, engineScore: 0.1 })), { stats, embedder: hashEmbedder });
    const one = await rankFeatures(claim, [{ doc: byId('fog-history'), engineScore: 0.1 }], { stats, embedder: hashEmbedder });
    const i = docs.findIndex((d) => d.id === 'fog-history');
    all[i]!.forEach((v, j) => assert.ok(Math.abs(v - one[0]![j]!) < 1e-6, RANK_FEATURES[j]));
  });

  it("reuse the index's stored vectors only for the exact passage, with the same result as embedding", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-rankvec-'));
    const store = new MemoryStore();
    try {
      await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl', embedder: hashEmbedder });
      const indexed = await store.getDocuments(docs.map((d) => d.id));
      const cands = indexed.map((doc) => ({ doc, engineScore: 0.2 }));
      let asked = 0;
      const storedVectors = async (ids: string[]) => {
        asked += ids.length;
        return store.passageVectors(ids);
      };
      const embedded = await rankFeatures(claim, cands, { stats, embedder: hashEmbedder });
      let calls = 0;
      const counting = { ...hashEmbedder, embed: async (t: string[]) => ((calls += t.length), hashEmbedder.embed(t)) };
      const reused = await rankFeatures(claim, cands, { stats, embedder: counting, storedVectors });
      reused.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - embedded[i]![j]!) < 1e-6, `${indexed[i]!.id} ${RANK_FEATURES[j]}`)));
      assert.ok(asked > 0);
      assert.equal(calls, 1, 'only the dense query is embedded');
      // A document with an indexed id but other text is embedded, not matched to the stored vector.
      const changed = { ...indexed[0]!, sentences: ['Completely different words about roses and gardens.'] };
      calls = 0;
      const [row] = await rankFeatures(claim, [{ doc: changed, engineScore: 0 }], { stats, embedder: counting, storedVectors });
      const [fresh] = await rankFeatures(claim, [{ doc: changed, engineScore: 0 }], { stats, embedder: hashEmbedder });
      assert.equal(calls, 2);
      assert.ok(Math.abs(row![col('dense')]! - fresh![col('dense')]!) < 1e-6);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
