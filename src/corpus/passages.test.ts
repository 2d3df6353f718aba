import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { chunkPassages, countWords } from './passages.js';
import type { Document, Passage } from './types.js';

/** Sentences of 0..40 words with varied whitespace; some empty, some whitespace-only. */
const sentence = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t') },
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom('a', 'cell', 'Dr.', '3.14', 'état', '-', 'x'), fc.constantFrom(' ', ' ', '  ', '\n', '\u00a0')), { minLength: 1, maxLength: 40 })
      .map((parts) => parts.map(([w, s]) => w + s).join('').trim()),
  },
);
const doc = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  title: fc.string({ maxLength: 10 }),
  sentences: fc.array(sentence, { maxLength: 30 }),
});
const maxWords = fc.integer({ min: 1, max: 60 });

/** The obvious, slow version, as written from the spec. */
function reference(d: Document, max: number): Passage[] {
  const words = d.sentences.map((s) => s.split(/\s+/).filter(Boolean).length);
  const groups: number[][] = [];
  let current: number[] = [];
  let total = 0;
  d.sentences.forEach((_, i) => {
    if (words[i]! > 0 && total > 0 && total + words[i]! > max) {
      groups.push(current);
      current = [];
      total = 0;
    }
    current.push(i);
    total += words[i]!;
  });
  if (current.length) groups.push(current);
  return groups.map((g, index) => ({
    id: `${d.id}#${index}`,
    docId: d.id,
    title: d.title,
    index,
    sentenceStart: g[0]!,
    sentenceEnd: g[g.length - 1]! + 1,
    text: g.map((i) => d.sentences[i]).join(' '),
  }));
}

test('property: passages are contiguous, ordered, cover [0, n) so each sentence is in exactly one', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      const ps = chunkPassages(d, { maxWords: max });
      let expectedStart = 0;
      ps.forEach((p, i) => {
        assert.equal(p.index, i);
        assert.equal(p.sentenceStart, expectedStart);
        assert.ok(p.sentenceEnd > p.sentenceStart, 'no empty passage');
        expectedStart = p.sentenceEnd;
      });
      assert.equal(expectedStart, d.sentences.length);
      const owner = new Array<number>(d.sentences.length).fill(0);
      for (const p of ps) for (let s = p.sentenceStart; s < p.sentenceEnd; s++) owner[s]!++;
      assert.ok(owner.every((n) => n === 1));
    }),
    { numRuns: 500 },
  );
});

test('property: no passage is over the limit unless it holds a single non-empty sentence', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      for (const p of chunkPassages(d, { maxWords: max })) {
        const words = countWords(p.text);
        const nonEmpty = d.sentences.slice(p.sentenceStart, p.sentenceEnd).filter((s) => countWords(s) > 0).length;
        assert.ok(words <= max || nonEmpty === 1, `${words} words in ${nonEmpty} sentences, limit ${max}`);
      }
    }),
    { numRuns: 500 },
  );
});

test('property: text is its sentences joined by a space; ids, doc ids and titles are set', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      for (const p of chunkPassages(d, { maxWords: max })) {
        assert.equal(p.text, d.sentences.slice(p.sentenceStart, p.sentenceEnd).join(' '));
        assert.equal(p.id, `${d.id}#${p.index}`);
        assert.equal(p.docId, d.id);
        assert.equal(p.title, d.title);
      }
    }),
    { numRuns: 500 },
  );
});

test('property: greedy packing — a passage could not have taken the next sentence', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      const ps = chunkPassages(d, { maxWords: max });
      for (let i = 0; i + 1 < ps.length; i++) {
        const next = countWords(d.sentences[ps[i + 1]!.sentenceStart]!);
        assert.ok(countWords(ps[i]!.text) + next > max, 'the next passage starts only when the sentence did not fit');
      }
    }),
    { numRuns: 500 },
  );
});

test('property: same passages as the reference implementation', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      assert.deepEqual(chunkPassages(d, { maxWords: max }), reference(d, max));
    }),
    { numRuns: 500 },
  );
});

test('property: countWords equals splitting on \\s', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 80 }), fc.string({ maxLength: 40 }), (a, b) => {
      for (const s of [a, b, `${a} \u3000\u2028${b}\ufeff`]) assert.equal(countWords(s), s.split(/\s+/).filter(Boolean).length);
    }),
    { numRuns: 500 },
  );
});

test('examples: default 100 words, a long sentence alone, empty sentences attached, empty document', () => {
  const w = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const d: Document = { id: 'd', title: 'T', sentences: ['', w(60), w(30), w(20), w(150), '', w(5)] };
  const ps = chunkPassages(d);
  assert.deepEqual(ps.map((p) => [p.sentenceStart, p.sentenceEnd]), [[0, 3], [3, 4], [4, 6], [6, 7]]);
  assert.deepEqual(chunkPassages({ id: 'e', title: '', sentences: [] }), []);
  assert.deepEqual(chunkPassages({ id: 'f', title: '', sentences: ['', ''] }).map((p) => [p.sentenceStart, p.sentenceEnd, p.text]), [[0, 2, ' ']]);
  assert.throws(() => chunkPassages(d, { maxWords: 0 }), RangeError);
});
