import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { readLines, type SourceLine } from './read-lines.js';

async function collect(path: string, skip?: number): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const l of readLines(path, { skip })) out.push(l);
  return out;
}

function withTempDir(fn: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'veracite-lines-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('lines longer than a read chunk and multi-byte characters across chunk edges come back intact', withTempDir(async (dir) => {
  const long = 'é'.repeat(1_500_001) + '😀'.repeat(300_001); // ~4 MB of UTF-8, several 1 MiB chunks
  const path = join(dir, 'big.jsonl');
  writeFileSync(path, `${long}\r\n\n${long.slice(0, 10)}`);
  const lines = await collect(path);
  assert.equal(lines.length, 2);
  assert.equal(lines[0]!.text, long);
  assert.equal(lines[0]!.line, 1);
  assert.deepEqual({ line: lines[1]!.line, text: lines[1]!.text }, { line: 3, text: long.slice(0, 10) });
}));

test('a .gz file reads the same as the plain file', withTempDir(async (dir) => {
  const plain = join(SAMPLES, 'scifact', 'corpus.jsonl');
  const gz = join(dir, 'corpus.jsonl.gz');
  writeFileSync(gz, gzipSync(readFileSync(plain)));
  const a = await collect(plain);
  const b = await collect(gz);
  assert.equal(b.length, a.length);
  assert.deepEqual(b.map((l) => [l.line, l.text]), a.map((l) => [l.line, l.text]));
}));

test('a directory of .jsonl files is read in name order; skip runs across files; numbering restarts per file', withTempDir(async (dir) => {
  writeFileSync(join(dir, 'wiki-002.jsonl'), '{"n":3}\n{"n":4}\n');
  writeFileSync(join(dir, 'wiki-001.jsonl'), '{"n":1}\n\n{"n":2}\n');
  writeFileSync(join(dir, 'notes.txt'), 'not a record\n');
  writeFileSync(join(dir, '.hidden.jsonl'), '{"n":0}\n');
  const all = await collect(dir);
  assert.deepEqual(all.map((l) => JSON.parse(l.text).n), [1, 2, 3, 4]);
  assert.deepEqual(all.map((l) => l.line), [1, 3, 1, 2]);
  assert.ok(all[2]!.file.endsWith('wiki-002.jsonl'));
  const resumed = await collect(dir, 3);
  assert.deepEqual(resumed.map((l) => JSON.parse(l.text).n), [4]);
}));

test('stopping early closes the file (no leak, no error)', async () => {
  const path = join(SAMPLES, 'scifact', 'corpus.jsonl');
  for (let i = 0; i < 50; i++) {
    for await (const l of readLines(path)) {
      assert.equal(l.line, 1);
      break;
    }
  }
});

test('a missing path or an empty directory throws, naming the path', withTempDir(async (dir) => {
  const missing = join(dir, 'nope.jsonl');
  await assert.rejects(collect(missing), (e: Error) => e.message.includes(missing));
  await assert.rejects(collect(dir), (e: Error) => e.message.includes(dir));
}));

test('invalid UTF-8 is flagged on its line (with the column), not silently turned into U+FFFD', withTempDir(async (dir) => {
  const path = join(dir, 'latin1.jsonl');
  const good = Buffer.from('{"id": "1", "title": "Caf\u00e9", "text": "ok"}\n');
  // "Café" written in Latin-1 (0xE9 alone is not UTF-8), then a truncated 3-byte sequence at the end of a line.
  const badPrefix = '{"id": "2", "title": "Caf';
  const cutPrefix = '{"id": "3", "title": "t", "text": "';
  const bad = Buffer.concat([Buffer.from(badPrefix), Buffer.from([0xe9]), Buffer.from('", "text": "x"}\n')]);
  const cut = Buffer.concat([Buffer.from(cutPrefix), Buffer.from([0xe2, 0x82]), Buffer.from('"}\n')]);
  writeFileSync(path, Buffer.concat([good, bad, good, cut, Buffer.from('{"id": "\u20ac", "title": "", "text": "\u00e9"}')]));
  const lines = await collect(path);
  assert.deepEqual(lines.map((l) => [l.line, l.invalidUtf8?.column]), [[1, undefined], [2, badPrefix.length + 1], [3, undefined], [4, cutPrefix.length + 1], [5, undefined]]);
  assert.equal(lines[4]!.text, '{"id": "\u20ac", "title": "", "text": "\u00e9"}');
  assert.equal((await collect(path, 2))[0]!.line, 3, 'an invalid line still counts as a record for resuming');
}));

test('invalid UTF-8 straddling a read chunk edge is found on the right line', withTempDir(async (dir) => {
  const path = join(dir, 'edge.jsonl');
  const pad = 'a'.repeat((1 << 20) - 4); // the invalid byte is the last of the first 1 MiB read chunk
  writeFileSync(path, Buffer.concat([Buffer.from(`${pad}\n`), Buffer.from('xy'), Buffer.from([0xc3]), Buffer.from('\n\u00e9\u00e9\n')]));
  const lines = await collect(path);
  assert.deepEqual(lines.map((l) => [l.line, l.invalidUtf8?.column, l.text.length]), [[1, undefined, pad.length], [2, 3, 3], [3, undefined, 2]]);
}));
