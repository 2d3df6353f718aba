import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { chunkPassages } from '../corpus/passages.js';
import { LanceStore } from './lancedb-store.js';
import { openStore } from './open-store.js';

/** Lines printed by the child, awaited one expected line at a time. */
type Writer = ChildProcessByStdio<Writable, Readable, null>;

function lines(child: Writer) {
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  return (timeoutMs = 60_000) =>
    new Promise<string>((res, rej) => {
      if (queue.length) return res(queue.shift()!);
      const t = setTimeout(() => rej(new Error('the writer process said nothing')), timeoutMs);
      waiting.push((l) => {
        clearTimeout(t);
        res(l);
      });
    });
}

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('read-only LanceStore beside a writer process', () => {
  let dir: string;
  let idx: string;
  let writer: Writer;
  let next: ReturnType<typeof lines>;
  let reader: LanceStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-readonly-'));
    idx = join(dir, 'idx');
    writer = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/store/writer-child.ts', idx], { stdio: ['pipe', 'pipe', 'inherit'] });
    next = lines(writer);
    assert.equal(await next(), 'ready');
    reader = await LanceStore.open(idx, { readOnly: true, refreshSeconds: 0.1 });
  });
  after(async () => {
    await reader?.close();
    writer.stdin.end('exit\n');
    await new Promise((r) => writer.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  });

  it("sees the writer's new documents and settings without reopening", async () => {
    assert.equal((await reader.searchText('lighthouses', 5))[0]?.passage.docId, 'first-1');
    assert.deepEqual(await reader.searchText('zorbling quillmoor1', 5), []);
    const before = await reader.snapshot();
    writer.stdin.write('write 1\n');
    assert.equal(await next(), 'wrote 1');
    const hits = await until(() => reader.searchText('quillmoor1', 5), (h) => h.length > 0);
    assert.equal(hits[0]?.passage.docId, 'late-1');
    assert.deepEqual((await reader.getDocuments(['late-1'])).map((d) => d.id), ['late-1']);
    assert.notEqual(await reader.snapshot(), before, 'the snapshot id follows the writer');
    assert.equal((await reader.stats()).documents, 3);
    writer.stdin.write('setting\n');
    assert.equal(await next(), 'set');
    writer.stdin.write('write 2\n');
    assert.equal(await next(), 'wrote 2');
    await until(() => reader.snapshot().then(() => reader.settings['embedder']), (v) => v !== undefined);
    assert.deepEqual(reader.settings['embedder'], { id: 'late-embedder', version: '1', backend: 'test' });
  });

  it('refuses every write, naming the index', async () => {
    const d = { id: 'x', title: 'x', sentences: ['x'] };
    await assert.rejects(reader.upsert([{ doc: d, passages: chunkPassages(d) }]), /opened read-only, cannot write documents/);
    await assert.rejects(reader.buildTextIndex(), /read-only/);
    await assert.rejects(reader.setSetting('k', 1), /read-only/);
    await assert.rejects(reader.setCheckpoint({ source: 's', records: 1, updatedAt: '', fingerprint: '', maxWords: 100 }), /read-only/);
    assert.equal((await reader.getDocuments(['x'])).length, 0);
  });

  it('never creates an index', async () => {
    const missing = join(dir, 'missing');
    await assert.rejects(openStore(missing, { readOnly: true }), /no veracite index here/);
    assert.equal(existsSync(missing), false);
    assert.ok((await readdir(dir)).every((n) => n === 'idx'));
  });
});

describe('openStore', () => {
  it('opens a LanceStore for a directory, a MemoryStore for memory:, and names an unreachable OpenSearch node', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-open-'));
    try {
      const lance = await openStore(join(dir, 'idx'));
      assert.match(lance.engine, /^lancedb@/);
      await lance.close();
      assert.equal((await openStore('memory:')).engine, 'memory');
      await assert.rejects(openStore('opensearch+http://127.0.0.1:1/veracite'), /cannot reach OpenSearch at http:\/\/127\.0\.0\.1:1/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
