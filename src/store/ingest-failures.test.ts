/**
 * Ingest when the store fails, and what the summary says about a run (issue 12): a failed commit is an
 * error of ingestSource, never an unhandled rejection that kills the process; replacements and runs that
 * indexed nothing are counted honestly.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestProblem, ingestSource } from './ingest.js';
import { LanceStore } from './lancedb-store.js';
import type { DocumentWithPassages, Store } from './types.js';

/** The store with upsert failing from the `failFrom`-th call on (a full disk, a lost lock...). */
function failingStore(inner: Store, failFrom: number): Store {
  let calls = 0;
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'upsert') {
        return async (batch: DocumentWithPassages[]) => {
          if (++calls >= failFrom) throw new Error('ENOSPC: no space left on device (simulated)');
          return target.upsert(batch);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

describe('ingest failures and summaries', () => {
  let dir: string;
  let lines: string[];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-ingf-'));
    lines = (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').filter((l) => l.trim());
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a commit that fails while the next batch is read rejects ingestSource (no unhandled rejection)', async () => {
    // One record per file: reading the next batch waits on file I/O while the failed commit settles.
    const folder = join(dir, 'many');
    await mkdir(folder);
    for (let i = 0; i < 40; i++) await writeFile(join(folder, `part-${String(i).padStart(3, '0')}.jsonl`), lines[i] + '\n');
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const store = await LanceStore.open(join(dir, 'idx-fail'));
    try {
      for (const failFrom of [1, 2]) {
        await assert.rejects(ingestSource(failingStore(store, failFrom), folder, { format: 'scifact', batchSize: 3 }), /ENOSPC/);
      }
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(unhandled.map(String), []);
      // What was committed before the failure is a consistent prefix, and a rerun completes it.
      const s = await ingestSource(store, folder, { format: 'scifact', batchSize: 3 });
      assert.equal((await store.stats()).documents, 40);
      assert.ok(s.resumedFrom >= 3, `resumed from the last committed batch (${s.resumedFrom})`);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await store.close();
    }
  });

  it('replaced ids are counted as replacements, not new documents', async () => {
    const file = join(dir, 'dups.jsonl');
    // 50 records, then 5 of them again (a source with duplicate ids).
    await writeFile(file, [...lines.slice(0, 50), ...lines.slice(10, 15)].join('\n') + '\n');
    const store = await LanceStore.open(join(dir, 'idx-dups'));
    try {
      const first = await ingestSource(store, file, { format: 'scifact', batchSize: 20 });
      assert.deepEqual([first.records, first.documents, first.replaced, first.indexed], [55, 50, 5, 55]);
      assert.equal((await store.stats()).documents, 50);
      const again = await ingestSource(store, file, { format: 'scifact', batchSize: 20 });
      assert.deepEqual([again.records, again.documents, again.replaced], [55, 0, 55], 'a re-index adds no documents');
      assert.equal((await store.stats()).documents, 50);
      assert.equal(ingestProblem(again), undefined);
    } finally {
      await store.close();
    }
  });

  it('a run that indexed nothing although records were read says so (wrong --format, empty source)', async () => {
    const file = join(dir, 'plain.jsonl');
    await writeFile(file, lines.slice(0, 20).join('\n') + '\n');
    const store = await LanceStore.open(join(dir, 'idx-none'));
    try {
      const s = await ingestSource(store, file, { format: 'fever' });
      assert.deepEqual([s.records, s.skipped, s.indexed], [20, 20, 0]);
      assert.match(ingestProblem(s)!, /none of its 20 records could be indexed \(20 skipped as fever records; first: .*plain\.jsonl:1 .*check --format/);
      const empty = join(dir, 'empty.jsonl');
      await writeFile(empty, '\n\n');
      assert.match(ingestProblem(await ingestSource(store, empty, { format: 'jsonl' }))!, /no records found/);
      const ok = await ingestSource(store, file, { format: 'scifact' });
      assert.equal(ingestProblem(ok), undefined);
    } finally {
      await store.close();
    }
  });

  it('invalid UTF-8 is a bad record with file:line, skipped and counted, or stopping the run', async () => {
    const file = join(dir, 'latin1.jsonl');
    const bad = Buffer.concat([Buffer.from('{"doc_id": 99999, "title": "Caf'), Buffer.from([0xe9]), Buffer.from('", "abstract": ["x."], "structured": false}')]);
    await writeFile(file, Buffer.concat([Buffer.from(lines.slice(0, 5).join('\n') + '\n'), bad, Buffer.from('\n' + lines.slice(5, 10).join('\n') + '\n')]));
    const store = await LanceStore.open(join(dir, 'idx-utf8'));
    try {
      const s = await ingestSource(store, file, { format: 'scifact', onError: 'skip' });
      assert.deepEqual([s.records, s.skipped, s.indexed], [11, 1, 10]);
      assert.match(s.errors[0]!, /latin1\.jsonl:6: invalid UTF-8 at column 32/);
      await assert.rejects(ingestSource(store, file, { format: 'scifact', onError: 'stop', resume: false }), /latin1\.jsonl:6: invalid UTF-8/);
    } finally {
      await store.close();
    }
  });
});
