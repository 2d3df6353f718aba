/**
 * Two `index` processes on one index at the same moment: never a corrupt or duplicated index, and the one
 * that has to wait is told who holds the index (issue 12). Real processes, since the lock is between them.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chunkPassages } from '../corpus/passages.js';
import { prepareDocument } from '../corpus/prepare.js';
import { readCorpus } from '../corpus/read-corpus.js';
import { LanceStore } from './lancedb-store.js';

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  result?: { ok: boolean; name?: string; message?: string; documents?: number };
}

/** Starts n index children, releases them together once all are loaded, and collects their results. */
async function raceWriters(n: number, idx: string, corpus: string, batchSize: number): Promise<ChildResult[]> {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/store/index-child.ts', idx, corpus, 'scifact', String(batchSize)], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const outputs = children.map((c) => {
    const out = { stdout: '', stderr: '' };
    c.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    return out;
  });
  const deadline = Date.now() + 60_000;
  while (!outputs.every((o) => o.stdout.startsWith('ready')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const c of children) c.stdin.write('go\n');
  const codes = await Promise.all(children.map((c) => new Promise<number | null>((r) => c.once('exit', (code) => r(code)))));
  return children.map((_, i) => {
    const line = outputs[i]!.stdout.split('\n').find((l) => l.startsWith('{'));
    return { code: codes[i]!, ...outputs[i]!, ...(line ? { result: JSON.parse(line) as ChildResult['result'] } : {}) };
  });
}

async function expected(corpus: string): Promise<{ ids: Set<string>; passages: number }> {
  const byId = new Map<string, number>();
  for await (const r of readCorpus(corpus, 'scifact')) if (r.ok) byId.set(r.doc.id, chunkPassages(prepareDocument(r.doc)).length);
  return { ids: new Set(byId.keys()), passages: [...byId.values()].reduce((a, b) => a + b, 0) };
}

async function checkIndex(idx: string, want: { ids: Set<string>; passages: number }): Promise<void> {
  const store = await LanceStore.open(idx, { create: false });
  try {
    const stats = await store.stats();
    const docs = await store.getDocuments([...want.ids]);
    assert.equal(docs.length, want.ids.size, 'every id present');
    assert.equal(stats.documents, want.ids.size, `document rows (${stats.documents}) = distinct ids (${want.ids.size}): no duplicates`);
    assert.equal(stats.passages, want.passages, `passage rows (${stats.passages}) = expected passages (${want.passages})`);
    const passageIds = new Set<string>();
    for (const id of want.ids) for (const p of await store.getPassages(id)) passageIds.add(p.id);
    assert.equal(passageIds.size, want.passages, 'no duplicate passage ids');
  } finally {
    await store.close();
  }
}

function assertOneWriterWon(results: ChildResult[]): void {
  for (const r of results) {
    assert.ok(r.result, `every child reports (no crash, no unhandled rejection): exit ${r.code}, stderr ${r.stderr.slice(-800)}`);
    if (!r.result.ok) {
      assert.equal(r.result.name, 'WriterLockError', `a refused writer is refused by the lock: ${r.result.message}`);
      assert.match(r.result.message!, /being written by another process \(pid \d+/);
    }
  }
  assert.ok(results.some((r) => r.result?.ok), 'at least one writer finished');
}

describe('two index processes on one index', () => {
  let dir: string;
  let corpus: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-2w-'));
    corpus = join(dir, 'corpus.jsonl');
    await writeFile(corpus, await readFile('data/samples/scifact/corpus.jsonl'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('on an empty index: one writes, the other is refused with the holder named; no duplicates', async () => {
    const idx = join(dir, 'empty');
    const results = await raceWriters(2, idx, corpus, 25);
    assertOneWriterWon(results);
    await checkIndex(idx, await expected(corpus));
  });

  it('on an existing index: same, and the index keeps exactly one row per id', async () => {
    const idx = join(dir, 'existing');
    const first = await raceWriters(1, idx, corpus, 200);
    assert.ok(first[0]!.result?.ok, first[0]!.stderr);
    const results = await raceWriters(2, idx, corpus, 25);
    assertOneWriterWon(results);
    await checkIndex(idx, await expected(corpus));
  });
});
