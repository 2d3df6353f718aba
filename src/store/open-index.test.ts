/**
 * Opening an index creates nothing until the first write, and read opens refuse a missing or empty
 * index (issue 12, defect 8): a failed `index`, or a `search` given a wrong --index, must not leave an
 * empty index folder that later commands accept. An empty index whose writer lock names a dead process says
 * the lock is stale and what to run (issue 27, defect 6).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chunkPassages } from '../corpus/passages.js';
import { ingestSource } from './ingest.js';
import { LanceStore, MissingIndexError } from './lancedb-store.js';
import { MANIFEST_FILE, newManifest } from './manifest.js';
import { WRITER_LOCK_FILE, type LockHolder } from './writer-lock.js';

describe('opening an index', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-open-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a read open of a missing index refuses, says how to build one, and creates nothing', async () => {
    const idx = join(dir, 'missing', 'idx');
    await assert.rejects(LanceStore.open(idx, { create: false }), (e: unknown) => e instanceof MissingIndexError && /no veracite index here; build one with "veracite index <corpus files> --index /.test(e.message));
    assert.ok(!existsSync(join(dir, 'missing')));
  });

  it('a write open creates nothing until the first write; closing unused leaves nothing', async () => {
    const idx = join(dir, 'lazy');
    const store = await LanceStore.open(idx);
    assert.deepEqual(await store.stats(), { documents: 0, passages: 0, sentences: 0, textIndexed: false });
    assert.deepEqual(await store.searchText('anything', 5), []);
    await store.close();
    assert.ok(!existsSync(idx));
  });

  it('an index run that fails before writing (missing corpus, or every record bad) leaves no folder behind', async () => {
    const idx = join(dir, 'failed');
    const store = await LanceStore.open(idx, { lock: 'open' });
    assert.ok(existsSync(join(idx, WRITER_LOCK_FILE)), 'lock: open takes the lock at once');
    await assert.rejects(ingestSource(store, join(dir, 'no-such-corpus.jsonl')), /corpus path not found/);
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, '{"id": "1", "title": "x"}\n{"id": "2"}\n');
    const s = await ingestSource(store, bad, { format: 'jsonl' });
    assert.equal(s.skipped, 2);
    await store.close();
    assert.ok(!existsSync(idx), 'no empty index folder');
    await assert.rejects(LanceStore.open(idx, { create: false }), MissingIndexError);
  });

  it('a read open refuses an index folder that holds no documents (left by an older failed run)', async () => {
    const idx = join(dir, 'empty');
    await mkdir(idx);
    await writeFile(join(idx, MANIFEST_FILE), JSON.stringify(newManifest({})));
    await assert.rejects(LanceStore.open(idx, { create: false }), /holds no documents yet; build it with "veracite index/);
    await assert.rejects(LanceStore.open(idx, { readOnly: true }), MissingIndexError);
    assert.deepEqual((await readdir(idx)).sort(), [MANIFEST_FILE]);
  });

  it('a read-only open never writes nor locks; the first write of a normal open does', async () => {
    const idx = join(dir, 'rw');
    const doc = { id: 'd1', title: 'Quokka', sentences: ['Quokkas live on Rottnest Island.'] };
    const writer = await LanceStore.open(idx);
    await writer.upsert([{ doc, passages: chunkPassages(doc) }]);
    assert.ok(existsSync(join(idx, WRITER_LOCK_FILE)), 'the first write took the lock');
    const reader = await LanceStore.open(idx, { readOnly: true });
    assert.equal((await reader.searchText('Rottnest', 3))[0]?.passage.docId, 'd1', 'readers are not blocked by the writer');
    await assert.rejects(reader.upsert([{ doc, passages: chunkPassages(doc) }]), /opened read-only/);
    await reader.close();
    await writer.close();
    assert.ok(!existsSync(join(idx, WRITER_LOCK_FILE)), 'close releases the lock');
    assert.ok(JSON.parse(await readFile(join(idx, MANIFEST_FILE), 'utf8')).storeId);
  });
});

describe('a read open of an empty index whose writer lock names a process (issue 27, defect 6)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-openlock-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const emptyIndexLockedBy = async (name: string, holder: LockHolder) => {
    const idx = join(dir, name);
    await mkdir(idx);
    await writeFile(join(idx, MANIFEST_FILE), JSON.stringify(newManifest({})));
    await writeFile(join(idx, WRITER_LOCK_FILE), JSON.stringify(holder));
    return idx;
  };

  it('a dead pid (kill -9): the lock is called stale and the message says what to run; nothing is removed', async () => {
    // A pid that was running a moment ago and is gone now, as after a kill -9 of `veracite index`.
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await new Promise((r) => child.once('exit', r));
    const idx = await emptyIndexLockedBy('dead', { pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'veracite index corpus.jsonl', token: 't' });
    for (const opts of [{ create: false }, { readOnly: true }] as const) {
      await assert.rejects(LanceStore.open(idx, opts), (e: unknown) => {
        assert.ok(e instanceof MissingIndexError);
        assert.doesNotMatch(e.message, /an ingest is running/);
        assert.match(e.message, new RegExp(`writer lock is stale: pid ${pid} \\(since 2026-01-01T00:00:00.000Z\\) is no longer running`));
        assert.match(e.message, new RegExp(`Run the ingest again with "veracite index <corpus files> --index ${idx}"; it removes the stale lock`));
        assert.match(e.message, /it ran: veracite index corpus\.jsonl/);
        return true;
      });
    }
    assert.ok(existsSync(join(idx, WRITER_LOCK_FILE)), 'a reader never breaks the lock');
  });

  it('a live pid on this host: an ingest is running; another host: cannot be checked, says which file to delete', async () => {
    const live = await emptyIndexLockedBy('live', { pid: process.pid, host: hostname(), startedAt: 'now', command: 'x', token: 't' });
    await assert.rejects(LanceStore.open(live, { create: false }), new RegExp(`an ingest is running: pid ${process.pid} since now\\); wait for it to commit its first batch and retry`));
    const far = await emptyIndexLockedBy('far', { pid: 1, host: `not-${hostname()}`, startedAt: 'then', command: 'x', token: 't' });
    await assert.rejects(LanceStore.open(far, { create: false }), (e: unknown) => (e as Error).message.includes(`on host not-${hostname()}`) && (e as Error).message.includes(`delete ${join(far, WRITER_LOCK_FILE)}`));
  });
});
