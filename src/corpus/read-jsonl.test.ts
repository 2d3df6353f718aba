import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES } from '../../test/fixtures/corpus/paths.js';
import { readJsonl } from './read-jsonl.js';
import { RecordError, type ReadResult } from './types.js';

const BAD = join(FIXTURES, 'bad-jsonl.jsonl');

async function collect(it: AsyncIterable<ReadResult>): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  for await (const r of it) out.push(r);
  return out;
}

function errorAt(results: ReadResult[], line: number): RecordError {
  const r = results.find((x) => !x.ok && x.error.line === line);
  assert.ok(r && !r.ok, `expected an error on line ${line}`);
  return r.error;
}

test('generic JSONL: good lines become documents, BOM/CRLF/blank lines handled, reading continues past bad lines', async () => {
  const results = await collect(readJsonl(BAD));
  // 12 physical lines, 2 blank ones: 10 records.
  assert.equal(results.length, 10);
  const ok = results.filter((r) => r.ok);
  assert.deepEqual(ok.map((r) => r.ok && r.doc.id), ['a', '12', 'last']);
  const first = ok[0]!;
  assert.ok(first.ok);
  // The BOM is not part of the first record and the CR of CRLF is not part of any value.
  assert.deepEqual(first.doc, { id: 'a', title: 'Good A', text: 'First sentence. Second sentence.' });
  assert.deepEqual(first.loc, { file: BAD, line: 1 });
  const numeric = ok[1]!;
  assert.ok(numeric.ok);
  assert.deepEqual(numeric.doc, { id: '12', title: 'Numeric id', sentences: ['Kept.', ''], url: 'https://example.org/12', links: ['a', 'b'] });
  assert.equal(numeric.loc.line, 10);
  const last = ok[2]!;
  assert.ok(last.ok);
  assert.equal(last.loc.line, 12);
  assert.equal(last.doc.text, 'End.');
});

test('generic JSONL: each bad line names file, physical line and field', async () => {
  const results = await collect(readJsonl(BAD));
  const cases: Array<[number, string | undefined, RegExp]> = [
    [3, undefined, /invalid JSON/],
    [4, 'id', /missing/],
    [6, 'title', /expected a string, found a number/],
    [7, 'text', /missing/],
    [8, 'sentences[1]', /expected a string/],
    [9, undefined, /expected a JSON object, found an array/],
    [11, 'links', /expected an array of strings/],
  ];
  for (const [line, field, problem] of cases) {
    const e = errorAt(results, line);
    assert.ok(e instanceof RecordError);
    assert.equal(e.file, BAD);
    assert.equal(e.field, field, `line ${line}`);
    assert.match(e.problem, problem, `line ${line}`);
    assert.ok(e.message.startsWith(`${BAD}:${line}`), e.message);
  }
});

test('generic JSONL: skip counts records (good or bad), not physical lines', async () => {
  const all = await collect(readJsonl(BAD));
  for (const skip of [0, 1, 2, 5, 9, 10, 50]) {
    const rest = await collect(readJsonl(BAD, { skip }));
    assert.equal(rest.length, Math.max(0, all.length - skip), `skip ${skip}`);
    assert.deepEqual(rest, all.slice(skip), `skip ${skip}`);
  }
});

test('generic JSONL: a missing file throws an Error naming the path', async () => {
  const path = join(FIXTURES, 'does-not-exist.jsonl');
  await assert.rejects(collect(readJsonl(path)), (e: Error) => e.message.includes(path));
});

test('a line with invalid UTF-8 is a bad record naming file and line (skipped or stopping like any other)', async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'veracite-utf8-'));
  try {
    const path = join(dir, 'c.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from('{"id": "1", "title": "A", "text": "fine"}\n{"id": "2", "title": "Caf'), Buffer.from([0xe9]), Buffer.from('", "text": "x"}\n{"id": "3", "title": "C", "text": "fine"}\n')]));
    const out = [];
    for await (const r of readJsonl(path)) out.push(r);
    assert.deepEqual(out.map((r) => r.ok), [true, false, true]);
    const bad = out[1]!;
    assert.ok(!bad.ok);
    assert.equal(bad.error.line, 2);
    assert.match(bad.error.message, /c\.jsonl:2: invalid UTF-8 at column 26/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
