import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collect, jsonLines } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { readScifact } from './read-scifact.js';

const CORPUS = join(SAMPLES, 'scifact', 'corpus.jsonl');

test('SciFact sample: every abstract, ids as strings, sentence lists exactly as given', async () => {
  const expected = jsonLines(CORPUS);
  const results = await collect(readScifact(CORPUS));
  assert.equal(results.length, expected.length);
  assert.ok(results.length >= 900, 'the sample holds about 1000 abstracts');
  results.forEach((r, i) => {
    assert.ok(r.ok, `record ${i + 1}`);
    const e = expected[i]!;
    assert.equal(r.doc.id, String(e['doc_id']));
    assert.equal(r.doc.title, e['title']);
    assert.deepEqual(r.doc.sentences, e['abstract']);
    assert.equal(r.doc.text, undefined);
    assert.equal(r.loc.line, i + 1);
  });
});

test('SciFact sample: every abstract cited by the sample claims is in the sample corpus', async () => {
  const ids = new Set<string>();
  for (const r of await collect(readScifact(CORPUS))) if (r.ok) ids.add(r.doc.id);
  for (const file of ['claims_dev.jsonl', 'claims_train.jsonl']) {
    const claims = jsonLines(join(SAMPLES, 'scifact', file));
    assert.equal(claims.length, 100);
    for (const c of claims) for (const id of c['cited_doc_ids'] as number[]) assert.ok(ids.has(String(id)), `${file}: claim ${c['id']} cites ${id}`);
  }
});

test('SciFact: skip resumes at the right abstract', async () => {
  const expected = jsonLines(CORPUS);
  const rest = await collect(readScifact(CORPUS, { skip: 990 }));
  assert.equal(rest.length, expected.length - 990);
  const first = rest[0]!;
  assert.ok(first.ok);
  assert.equal(first.doc.id, String(expected[990]!['doc_id']));
  assert.equal(first.loc.line, 991);
});

test('SciFact: bad records name line and field; good ones around them still come through', async () => {
  const file = join(FIXTURES, 'bad-scifact.jsonl');
  const results = await collect(readScifact(file));
  assert.deepEqual(
    results.map((r) => (r.ok ? `ok ${r.doc.id}` : `${r.error.line} ${r.error.field}`)),
    ['ok 1', '2 abstract', '3 doc_id', '4 title', 'ok 5'],
  );
  const bad = results[1]!;
  assert.ok(!bad.ok);
  assert.equal(bad.error.file, file);
});
