import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { prepareDocument } from '../corpus/prepare.js';
import type { Document } from '../corpus/types.js';
import { Bm25Stats } from './lexical.js';
import { RANK_FEATURES, rankFeatures, type RankQuery } from './rank-features.js';
import { hashEmbedder } from './testing/hash-embedder.js';

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
});
