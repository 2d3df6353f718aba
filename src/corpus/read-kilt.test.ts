import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collect, jsonLines } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { readKilt } from './read-kilt.js';

const SAMPLE = join(SAMPLES, 'kilt', 'knowledge-sample.jsonl');

test('KILT sample: id, title, url, links; title paragraph and layout markers removed', async () => {
  const pages = jsonLines(SAMPLE);
  const results = await collect(readKilt(SAMPLE));
  assert.equal(results.length, pages.length);
  results.forEach((r, i) => {
    assert.ok(r.ok);
    const page = pages[i]!;
    assert.equal(r.doc.id, page['wikipedia_id']);
    assert.equal(r.doc.title, page['wikipedia_title']);
    assert.equal(r.doc.sentences, undefined, 'KILT gives paragraphs: they are split later');
    const paragraphs = r.doc.text!.split('\n\n');
    assert.equal(paragraphs.length, (page['text'] as string[]).length - 1);
    assert.ok(!r.doc.text!.includes('::::'));
    assert.ok(!r.doc.text!.startsWith(`${page['wikipedia_title']}\n`));
  });
  const [tide, light] = results;
  assert.ok(tide?.ok && light?.ok);
  assert.equal(tide.doc.url, (pages[0]!['history'] as { url: string }).url, 'history.url when there is no wikipedia_url');
  assert.equal(light.doc.url, pages[1]!['wikipedia_url']);
  assert.deepEqual(tide.doc.links, ['Starfish', 'Mussel']);
  assert.deepEqual(light.doc.links, ['Lighthouse of Alexandria'], 'an href is decoded when the anchor has no title');
  assert.ok(light.doc.text!.split('\n\n').includes('Early lights.'), 'nested section keeps its last part');
  assert.ok(tide.doc.text!.split('\n\n').includes('Sea stars'), 'bullet marker removed');
});

test('KILT: bad records name line and field', async () => {
  const results = await collect(readKilt(join(FIXTURES, 'bad-kilt.jsonl')));
  assert.deepEqual(
    results.map((r) => (r.ok ? `ok ${r.doc.id}` : `${r.error.line} ${r.error.field}`)),
    ['ok 1', '2 text', '3 history.url', '4 wikipedia_id'],
  );
});
