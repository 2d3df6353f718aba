import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { ingestSource } from './ingest.js';
import { MemoryStore } from './memory/memory-store.js';

describe("ingest of FEVER's wiki-pages folder", () => {
  it('reads gzipped and plain files in name order, resumes after an interruption, and duplicates nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-wikipages-'));
    try {
      const lines = (await readFile('data/samples/fever/wiki-pages-sample.jsonl', 'utf8')).split('\n').filter(Boolean);
      // The official layout: wiki-001.jsonl ... wiki-109.jsonl; here three files, the middle one gzipped.
      const folder = join(dir, 'wiki-pages');
      await mkdir(folder);
      await writeFile(join(folder, 'wiki-001.jsonl'), lines.slice(0, 2).join('\n') + '\n');
      await writeFile(join(folder, 'wiki-002.jsonl.gz'), gzipSync(lines.slice(2, 4).join('\n') + '\n'));
      await writeFile(join(folder, 'wiki-003.jsonl'), lines.slice(4).join('\n') + '\n');
      const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);

      const store = new MemoryStore();
      const stop = new AbortController();
      const first = await ingestSource(store, folder, { batchSize: 2, signal: stop.signal, onProgress: (p) => p.records >= 2 && stop.abort() });
      assert.equal(first.format, 'fever', 'detected from the records');
      assert.equal(first.interrupted, true);
      assert.equal((await store.stats()).documents, 2);
      const rest = await ingestSource(store, folder, { batchSize: 2 });
      assert.equal(rest.resumedFrom, 2);
      assert.equal(rest.documents, lines.length - 2);
      const docs = await store.getDocuments(ids);
      assert.deepEqual(docs.map((d) => d.id), ids, 'every page once, across the gzipped file too');
      assert.equal((await store.stats()).documents, lines.length);
      const soul = docs.find((d) => d.id === 'Soul_Food_-LRB-film-RRB-')!;
      assert.equal(soul.title, 'Soul Food (film)');
      assert.ok(soul.links?.includes('George Tillman Jr.'));
      assert.equal((await store.searchText('Vanessa Williams sisters', 3))[0]?.passage.docId, 'Soul_Food_-LRB-film-RRB-');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
