import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { detectFormat, readCorpus, READERS } from './read-corpus.js';
import type { CorpusFormat } from './types.js';

const CASES: Array<[string, CorpusFormat]> = [
  ['scifact/corpus.jsonl', 'scifact'],
  ['wice/retrieval_dev_corpus.jsonl', 'wice'],
  ['fever/wiki-pages-sample.jsonl', 'fever'],
  ['kilt/knowledge-sample.jsonl', 'kilt'],
  ['html', 'folder'],
  ['html/readme.txt', 'folder'],
];

test('detectFormat recognises every sample', async () => {
  for (const [path, format] of CASES) assert.equal(await detectFormat(join(SAMPLES, path)), format, path);
  assert.equal(await detectFormat(join(FIXTURES, 'bad-jsonl.jsonl')), 'jsonl', 'generic JSONL, BOM and all');
});

test('readCorpus auto gives what the format reader gives, and passes skip on', async () => {
  for (const [path, format] of CASES) {
    const full = join(SAMPLES, path);
    assert.deepEqual(await collect(readCorpus(full, 'auto')), await collect(READERS[format](full)), path);
    assert.deepEqual(await collect(readCorpus(full, format, { skip: 1 })), (await collect(READERS[format](full))).slice(1), path);
  }
});

test('detectFormat: a folder holding only .jsonl files is read as JSONL (FEVER wiki-pages/)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'veracite-detect-'));
  try {
    writeFileSync(join(dir, 'wiki-001.jsonl'), '{"id": "A", "text": "", "lines": "0\\tA ."}\n');
    assert.equal(await detectFormat(dir), 'fever');
    const docs = await collect(readCorpus(dir));
    assert.equal(docs.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('detectFormat explains what it could not recognise', async () => {
  const unknown = join(FIXTURES, 'unknown-format.jsonl');
  await assert.rejects(detectFormat(unknown), (e: Error) => e.message.includes(unknown) && e.message.includes('claim'));
  const notJson = join(FIXTURES, 'not-json.jsonl');
  await assert.rejects(detectFormat(notJson), (e: Error) => e.message.includes(notJson) && e.message.includes('line 2'));
  await assert.rejects(detectFormat(join(FIXTURES, 'empty.jsonl')), /no records/);
  const missing = join(FIXTURES, 'missing.jsonl');
  await assert.rejects(detectFormat(missing), (e: Error) => e.message.includes(missing));
  await assert.rejects(collect(readCorpus(missing, 'auto')), (e: Error) => e.message.includes(missing));
});
