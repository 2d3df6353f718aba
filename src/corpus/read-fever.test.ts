import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collect } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { feverIdToTitle } from './fever-title.js';
import { readFever } from './read-fever.js';
import type { RawDocument } from './types.js';

const SAMPLE = join(SAMPLES, 'fever', 'wiki-pages-sample.jsonl');

/** An independent reading of one page's `lines`: number -> sentence, and every link target. */
function parseLines(lines: string): { byNumber: Map<number, string>; targets: string[] } {
  const byNumber = new Map<number, string>();
  const targets: string[] = [];
  for (const row of lines.split('\n').filter(Boolean)) {
    const [n, sentence, ...rest] = row.split('\t');
    byNumber.set(Number(n), sentence ?? '');
    rest.forEach((v, i) => i % 2 === 1 && targets.push(v));
  }
  return { byNumber, targets };
}

async function docs(path: string): Promise<RawDocument[]> {
  return (await collect(readFever(path))).flatMap((r) => (r.ok ? [r.doc] : []));
}

test('FEVER sample: sentence N is at index N, empty rows kept as "", links are the targets', async () => {
  const pages = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; lines: string });
  const got = await docs(SAMPLE);
  assert.equal(got.length, pages.length);
  assert.ok(pages.length >= 5 && pages.length <= 10);
  let emptyRows = 0;
  pages.forEach((page, i) => {
    const doc = got[i]!;
    const { byNumber, targets } = parseLines(page.lines);
    assert.equal(doc.id, page.id, 'the id stays exactly as FEVER writes it');
    assert.equal(doc.sentences!.length, Math.max(...byNumber.keys()) + 1);
    for (const [n, s] of byNumber) {
      assert.equal(doc.sentences![n], s, `${page.id} sentence ${n}`);
      if (s === '') emptyRows++;
    }
    assert.deepEqual(doc.links ?? [], [...new Set(targets)]);
  });
  assert.ok(emptyRows > 0, 'the sample has empty rows');
});

test('FEVER sample: the film page', async () => {
  const soul = (await docs(SAMPLE)).find((d) => d.id === 'Soul_Food_-LRB-film-RRB-');
  assert.ok(soul);
  assert.equal(soul.title, 'Soul Food (film)');
  assert.equal(soul.sentences![2], '');
  assert.match(soul.sentences![3]!, /^The film was followed/);
  assert.ok(soul.links!.includes('Fox 2000 Pictures'));
  assert.ok(!soul.links!.includes('Soul Food'), 'anchor texts are not links, targets are');
});

test('FEVER titles decode bracket tokens and underscores', () => {
  assert.equal(feverIdToTitle('Soul_Food_-LRB-film-RRB-'), 'Soul Food (film)');
  assert.equal(feverIdToTitle('Star_Wars-COLON-_Episode_-LSB-IV-RSB-'), 'Star Wars: Episode [IV]');
  assert.equal(feverIdToTitle('A_-LCB-b-RCB-'), 'A {b}');
  assert.equal(feverIdToTitle('Plain'), 'Plain');
});

test('FEVER: malformed pages are errors with line and field; gaps keep numbering', async () => {
  const file = join(FIXTURES, 'bad-fever.jsonl');
  const results = await collect(readFever(file));
  assert.deepEqual(
    results.map((r) => (r.ok ? `ok ${r.doc.id}` : `${r.error.line} ${r.error.field}`)),
    ['1 id', 'ok Good_-LRB-page-RRB-', '3 lines', '4 lines', '5 lines', 'ok Gap', 'ok Star_Wars-COLON-_Episode_-LSB-IV-RSB-'],
  );
  const good = results[1]!;
  assert.ok(good.ok);
  assert.deepEqual(good.doc.sentences, ['First .', '', 'Third .']);
  assert.deepEqual(good.doc.links, ['Target A', 'Target B']);
  const gap = results[5]!;
  assert.ok(gap.ok);
  assert.deepEqual(gap.doc.sentences, ['Zero .', '', '', 'Three .']);
  const unnumbered = results[2]!;
  assert.ok(!unnumbered.ok);
  assert.match(unnumbered.error.problem, /row 2/);
});
