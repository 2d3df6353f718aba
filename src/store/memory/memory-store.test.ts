import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chunkPassages } from '../../corpus/passages.js';
import { ingestSource } from '../ingest.js';
import { LanceStore } from '../lancedb-store.js';
import { analyzeEnglish } from './english-analyzer.js';
import { MemoryStore } from './memory-store.js';

const SAMPLE = 'data/samples/scifact/corpus.jsonl';

describe('MemoryStore ranks like LanceStore', () => {
  let dir: string;
  let lance: LanceStore;
  let memory: MemoryStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-memrank-'));
    lance = await LanceStore.open(join(dir, 'idx'));
    memory = new MemoryStore();
    await ingestSource(lance, SAMPLE, { format: 'scifact' });
    await ingestSource(memory, SAMPLE, { format: 'scifact' });
  });
  after(async () => {
    await lance.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the same top passages and the same BM25 scores on real SciFact claims', async () => {
    const claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { claim: string }).claim);
    let sameTop = 0;
    let overlap = 0;
    let maxRel = 0;
    for (const claim of claims) {
      const a = await lance.searchText(claim, 10);
      const b = await memory.searchText(claim, 10);
      if (a[0]?.passage.id === b[0]?.passage.id) sameTop++;
      const ids = new Set(a.map((h) => h.passage.id));
      overlap += b.filter((h) => ids.has(h.passage.id)).length / Math.max(1, a.length);
      const byId = new Map(b.map((h) => [h.passage.id, h.score]));
      for (const h of a) {
        const s = byId.get(h.passage.id);
        if (s !== undefined) maxRel = Math.max(maxRel, Math.abs(s - h.score) / h.score);
      }
    }
    assert.ok(sameTop >= 0.95 * claims.length, `same top passage for ${sameTop}/${claims.length} claims`);
    assert.ok(overlap / claims.length >= 0.95, `mean top-10 overlap ${(overlap / claims.length).toFixed(3)}`);
    assert.ok(maxRel < 0.01, `largest relative score difference ${maxRel.toFixed(4)}`);
  });

  it('drops exactly the stop words LanceDB drops', async () => {
    // Each stop word alone in a passage: LanceDB finds none of them, and neither does the memory store.
    const words = ['have', 'would', 'does', 'because', 'should', 'also', 'very', 'its', 'now', 'could', 'may', 'which'];
    const docs = words.map((w, i) => ({ id: `stop-${i}`, title: '', sentences: [`${w} zqxfiller${i}`] }));
    const items = docs.map((d) => ({ doc: d, passages: chunkPassages(d) }));
    await lance.upsert(items);
    await lance.buildTextIndex();
    await memory.upsert(items);
    for (const w of words) {
      const a = (await lance.searchText(w, 50)).some((h) => h.passage.docId.startsWith('stop-'));
      const b = (await memory.searchText(w, 50)).some((h) => h.passage.docId.startsWith('stop-'));
      assert.equal(b, a, `"${w}": LanceDB ${a ? 'finds' : 'drops'} it, the memory store ${b ? 'finds' : 'drops'} it`);
    }
  });

  it('analyses text as the LanceDB tokenizer does', () => {
    // "weren" and "t" are stop words; "does" is not removed: the list is matched after stemming ("doe").
    assert.deepEqual(analyzeEnglish("The Naïve cafés weren't running—at 3.5% of T-cells, does it?"), ['naiv', 'cafe', 'run', '3', '5', 'cell', 'doe']);
    assert.deepEqual(analyzeEnglish(`${'x'.repeat(39)} ${'y'.repeat(40)}`), ['x'.repeat(39)], 'tokens of 40+ bytes are dropped');
  });
});
