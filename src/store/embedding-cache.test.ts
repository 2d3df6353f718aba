import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as lancedb from '@lancedb/lancedb';
import { EmbeddingCache } from './embedding-cache.js';
import { LetterEmbedder } from './testing/store-contract.js';

describe('EmbeddingCache at size', () => {
  it('indexes its keys once it holds 100k vectors, and still returns every cached vector', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-embcache-'));
    try {
      const embedder = new LetterEmbedder();
      const cache = await EmbeddingCache.open(dir, embedder);
      const texts = Array.from({ length: 110_000 }, (_, i) => `passage number ${i} about ${i % 97} things`);
      for (let i = 0; i < texts.length; i += 22_000) await cache.embed(embedder, texts.slice(i, i + 22_000));
      assert.equal(embedder.texts, texts.length);
      const db = await lancedb.connect(dir);
      const [name] = await db.tableNames();
      const indices = await (await db.openTable(name!)).listIndices();
      assert.ok(indices.some((i) => i.columns.includes('key') && i.indexType === 'BTree'), JSON.stringify(indices));
      const sample = [texts[5]!, texts[70_000]!, texts[109_999]!];
      const again = await cache.embed(embedder, sample);
      assert.equal(embedder.texts, texts.length, 'cached: nothing embedded again');
      assert.deepEqual(again, await embedder.embed(sample));
      cache.close();
      // Reopened, it knows the index covers the rows (no rebuild until 100k more).
      const reopened = await EmbeddingCache.open(dir, embedder);
      assert.equal(((await reopened.embed(embedder, [texts[1]!])) as Float32Array[]).length, 1);
      reopened.close();
      db.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
