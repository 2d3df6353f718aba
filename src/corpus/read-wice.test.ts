import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collect, jsonLines } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { readWice } from './read-wice.js';

const CORPUS = join(SAMPLES, 'wice', 'retrieval_dev_corpus.jsonl');

test('WiCE sample: the gold document of every sample query, sentences kept exactly', async () => {
  const expected = jsonLines(CORPUS);
  const results = await collect(readWice(CORPUS));
  assert.equal(results.length, expected.length);
  results.forEach((r, i) => {
    assert.ok(r.ok);
    assert.equal(r.doc.id, expected[i]!['doc_id']);
    assert.equal(r.doc.title, expected[i]!['title']);
    assert.deepEqual(r.doc.sentences, expected[i]!['sentences']);
  });
  const ids = new Set<unknown>(results.flatMap((r) => (r.ok ? [r.doc.id] : [])));
  const queries = jsonLines(join(SAMPLES, 'wice', 'retrieval_dev_queries.jsonl'));
  const claims = jsonLines(join(SAMPLES, 'wice', 'claim_dev.jsonl'));
  assert.equal(queries.length, 30);
  assert.equal(claims.length, 30);
  queries.forEach((q, i) => {
    assert.ok(ids.has(q['gold_doc_id']), `query ${q['id']}`);
    assert.equal(q['claim'], claims[i]!['claim']);
  });
});

test('WiCE: empty sentences stay in place; bad records name the field', async () => {
  const results = await collect(readWice(join(FIXTURES, 'bad-wice.jsonl')));
  const good = results[0]!;
  assert.ok(good.ok);
  assert.deepEqual(good.doc.sentences, ['A', '', 'C']);
  assert.deepEqual(results.slice(1).map((r) => !r.ok && [r.error.line, r.error.field]), [[2, 'sentences'], [3, 'sentences[0]']]);
});
