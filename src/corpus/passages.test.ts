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

const wordsOf = (s: string) => s.split(/\s+/).filter(Boolean);

/** The obvious, slow version, as written from the spec. */
function reference(d: Document, max: number): Passage[] {
  const words = d.sentences.map((s) => wordsOf(s).length);
  // A passage is a list of parts: a whole sentence, or a piece (word range) of a long one.
  type Part = { s: number; text: string; long: boolean };
  const groups: Part[][] = [];
  let current: Part[] = [];
  let total = 0;
  const hasLong = () => current.some((p) => p.long);
  d.sentences.forEach((sentence, i) => {
    const w = words[i]!;
    if (w > 0 && total > 0 && (total + w > max || hasLong())) {
      groups.push(current);
      current = [];
      total = 0;
    }
    if (w <= max) {
      current.push({ s: i, text: sentence, long: false });
      total += w;
      return;
    }
    const spans = [...sentence.matchAll(/\S+/g)].map((m) => [m.index!, m.index! + m[0].length] as const);
    const n = Math.ceil(w / max);
    const sizes = Array.from({ length: n }, (_, k) => Math.floor(w / n) + (k < w % n ? 1 : 0));
    let at = 0;
    sizes.forEach((size, k) => {
      current.push({ s: i, text: sentence.slice(spans[at]![0], spans[at + size - 1]![1]), long: true });
      at += size;
      if (k < n - 1) {
        groups.push(current);
        current = [];
      }
    });
    total = sizes[n - 1]!;
  });
  if (current.length) groups.push(current);
  return groups.map((g, index) => ({
    id: `${d.id}#${index}`,
    docId: d.id,
    title: d.title,
    index,
    sentenceStart: g[0]!.s,
    sentenceEnd: g[g.length - 1]!.s + 1,
    text: g.map((p) => p.text).join(' '),
  }));
}

/** Whether passage p holds (a piece of) a sentence longer than the limit. */
const holdsLong = (d: Document, p: Passage, max: number) => d.sentences.slice(p.sentenceStart, p.sentenceEnd).some((s) => countWords(s) > max);

test('property: passages are ordered and cover [0, n); only a sentence over the limit is in more than one, in consecutive passages', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      const ps = chunkPassages(d, { maxWords: max });
      let expectedStart = 0;
      ps.forEach((p, i) => {
        assert.equal(p.index, i);
        assert.ok(p.sentenceEnd > p.sentenceStart, 'no empty passage');
        if (p.sentenceStart !== expectedStart) {
          // Continuing a long sentence: the previous passage ended with it, and it is over the limit.
          assert.equal(p.sentenceStart, expectedStart - 1, `passage ${i} starts at ${p.sentenceStart}, expected ${expectedStart}`);
          assert.ok(countWords(d.sentences[p.sentenceStart]!) > max);
        }
        expectedStart = p.sentenceEnd;
      });
      assert.equal(expectedStart, d.sentences.length);
      const owner = new Array<number>(d.sentences.length).fill(0);
      for (const p of ps) for (let s = p.sentenceStart; s < p.sentenceEnd; s++) owner[s]!++;
      owner.forEach((n, s) => {
        const w = countWords(d.sentences[s]!);
        assert.equal(n, w > max ? Math.ceil(w / max) : 1, `sentence ${s} (${w} words) is in ${n} passages`);
      });
    }),
    { numRuns: 500 },
  );
});

test('property: no passage is over the limit', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      for (const p of chunkPassages(d, { maxWords: max })) assert.ok(countWords(p.text) <= max, `${countWords(p.text)} words, limit ${max}`);
    }),
    { numRuns: 500 },
  );
});

test('property: every word of the document is in exactly one passage, in order (pieces lose and repeat nothing)', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      assert.deepEqual(chunkPassages(d, { maxWords: max }).flatMap((p) => wordsOf(p.text)), d.sentences.flatMap(wordsOf));
    }),
    { numRuns: 500 },
  );
});

test('property: a long sentence becomes ceil(words / limit) pieces whose sizes differ by at most one', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      const ps = chunkPassages(d, { maxWords: max });
      d.sentences.forEach((s, i) => {
        const w = countWords(s);
        if (w <= max) return;
        const pieces = ps.filter((p) => p.sentenceStart <= i && i < p.sentenceEnd).map((p) => countWords(p.text));
        assert.equal(pieces.length, Math.ceil(w / max));
        assert.ok(Math.max(...pieces) - Math.min(...pieces) <= 1, `piece sizes ${pieces}`);
      });
    }),
    { numRuns: 500 },
  );
});

test('property: text is its sentences joined by a space unless it holds a piece; ids, doc ids and titles are set', () => {
  fc.assert(
    fc.property(doc, maxWords, (d, max) => {
      for (const p of chunkPassages(d, { maxWords: max })) {
        if (!holdsLong(d, p, max)) assert.equal(p.text, d.sentences.slice(p.sentenceStart, p.sentenceEnd).join(' '));
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
        if (holdsLong(d, ps[i]!, max) || holdsLong(d, ps[i + 1]!, max)) continue; // pieces stand alone
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
    { numRuns: 1000 },
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

test('examples: default 100 words, a long sentence in balanced pieces, empty sentences attached, empty document', () => {
  const w = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const d: Document = { id: 'd', title: 'T', sentences: ['', w(60), w(30), w(20), w(150), '', w(5)] };
  const ps = chunkPassages(d);
  // The 150-word sentence 4 is two 75-word pieces, both mapping back to sentence 4; the empty sentence 5
  // joins the second piece.
  assert.deepEqual(ps.map((p) => [p.sentenceStart, p.sentenceEnd, countWords(p.text)]), [[0, 3, 90], [3, 4, 20], [4, 5, 75], [4, 6, 75], [6, 7, 5]]);
  assert.equal(ps[3]!.text, `${w(150).split(' ').slice(75).join(' ')} `);
  assert.deepEqual(chunkPassages({ id: 'e', title: '', sentences: [] }), []);
  assert.deepEqual(chunkPassages({ id: 'f', title: '', sentences: ['', ''] }).map((p) => [p.sentenceStart, p.sentenceEnd, p.text]), [[0, 2, ' ']]);
  assert.throws(() => chunkPassages(d, { maxWords: 0 }), RangeError);
});

test('a 50 MB one-sentence document becomes word-bounded passages', () => {
  const words = ['cells', 'protein', 'binding', 'of', 'the', 'receptor', 'increased', 'levels'];
  const parts: string[] = [];
  let chars = 0;
  for (let i = 0; chars < 50e6; i++) {
    parts.push(words[i % words.length]!);
    chars += words[i % words.length]!.length + 1;
  }
  const sentence = parts.join(' ');
  const ps = chunkPassages({ id: 'big', title: 'Huge', sentences: [sentence] });
  assert.equal(ps.length, Math.ceil(parts.length / 100));
  assert.ok(ps.every((p) => p.sentenceStart === 0 && p.sentenceEnd === 1 && countWords(p.text) <= 100));
  assert.equal(ps.reduce((n, p) => n + p.text.length + 1, 0), sentence.length + 1, 'pieces joined by single spaces give the sentence back');
});
