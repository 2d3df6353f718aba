import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { indexCacheBytesFor, indexFilesBytes, LANCE_DEFAULT_INDEX_CACHE, lanceSession } from './lance-index-cache.js';
import { ingestSource } from './ingest.js';
import { LanceStore } from './lancedb-store.js';

const GB = 2 ** 30;

describe('LanceDB index cache sized for the index', () => {
  it("keeps LanceDB's default while the index fits it, grows with the index, and stops at half the machine", () => {
    assert.equal(indexCacheBytesFor(0.1 * GB, 24 * GB), undefined, 'a small index: the default session');
    assert.equal(indexCacheBytesFor(2.4 * GB, 24 * GB), undefined, '2 x 2.4 + 1 GB fits in 6 GB');
    // The 5M-passage benchmark index: 4.3 GB of index files, ~7.9 GB once cached.
    const fiveMillion = indexCacheBytesFor(4.3 * GB, 24 * GB)!;
    assert.ok(fiveMillion >= 8 * GB && fiveMillion <= 12 * GB, `${fiveMillion / GB} GB`);
    assert.equal(indexCacheBytesFor(40 * GB, 24 * GB), 12 * GB, 'capped at half of 24 GB');
    assert.equal(indexCacheBytesFor(40 * GB, 8 * GB), LANCE_DEFAULT_INDEX_CACHE, 'never below the default');
  });

  it('counts the index files of a real index, and a store opened on it serves queries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-cache-'));
    try {
      const idx = join(dir, 'idx');
      assert.equal(indexFilesBytes(idx), 0, 'no index yet');
      const w = await LanceStore.open(idx);
      await ingestSource(w, 'data/samples/scifact/corpus.jsonl', { format: 'scifact' });
      await w.close();
      const bytes = indexFilesBytes(idx);
      assert.ok(bytes > 10_000, `full-text and B-tree index files: ${bytes} bytes`);
      assert.equal(lanceSession(idx, undefined), undefined, 'the sample index needs no more than the default');
      assert.ok(lanceSession(idx, 64 * 2 ** 20), 'an explicit size gives a session');
      assert.throws(() => lanceSession(idx, -1), /index cache size must be a positive number of bytes/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
