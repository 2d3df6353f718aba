/**
 * Property: in generated Markdown, every link (inline, reference-style, autolink) and every footnote
 * reference becomes exactly one citation, in document order, whose claim is the whole sentence it sits in
 * (non-empty, markup removed) and whose claimPrefix is that sentence up to the marker.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseMarkdownDocument } from './markdown.js';

// Ordinary words only: abbreviations ("fig", "etc") would make sentence ends a matter of judgement.
const WORDS = ['seals', 'breed', 'coast', 'rose', 'colony', 'walkers', 'island', 'survey', 'counted', 'winter', 'pups', 'cliffs', 'tide', 'light', 'keeper', 'harbour', 'storm', 'boats', 'landed', 'north', 'south', 'report', 'found', 'fewer', 'more', 'since', 'during', 'every', 'morning', 'rocks'];

type Cite = 'link' | 'ref' | 'auto' | 'footnote' | 'none';

interface GenSentence {
  words: string[];
  /** Citation after word i (index into words), or at the end (index words.length). */
  cites: { at: number; kind: Exclude<Cite, 'none'> }[];
}

const sentence = fc
  .record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 9 }),
    cites: fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom<Exclude<Cite, 'none'>>('link', 'ref', 'auto', 'footnote') }), { maxLength: 3 }),
  })
  .map(({ words, cites }): GenSentence => ({ words, cites: cites.map((c) => ({ at: 1 + (c.at % words.length), kind: c.kind })).sort((a, b) => a.at - b.at) }));

const documentArb = fc.array(fc.array(sentence, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });

interface Expected {
  url: string;
  claim: string;
  prefix: string;
}

function render(paragraphs: GenSentence[][]): { markdown: string; expected: Expected[] } {
  let n = 0;
  const expected: Expected[] = [];
  const defs: string[] = [];
  const body = paragraphs.map((sentences, p) =>
    sentences
      .map((s, k) => {
        const plainWords = s.words.map((w, i) => (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w));
        const claim = plainWords.join(' ') + '.';
        const out: string[] = [];
        plainWords.forEach((w, i) => {
          // In the text a wrapping link comes before the markers written after the word.
          const here = s.cites.filter((c) => c.at === i + 1).sort((a, b) => Number(b.kind === 'link' || b.kind === 'ref') - Number(a.kind === 'link' || a.kind === 'ref'));
          const last = i === plainWords.length - 1;
          let word = w;
          const suffixes: string[] = [];
          let wrapped = false;
          for (const c0 of here) {
            // A link cannot contain a link (CommonMark): a second one on the same word becomes an autolink after it.
            const c = (c0.kind === 'link' || c0.kind === 'ref') && wrapped ? { ...c0, kind: 'auto' as const } : c0;
            if (c.kind === 'link' || c.kind === 'ref') wrapped = true;
            const id = `${p}-${k}-${n++}`;
            // A marker after the last word follows the full stop (suffix kinds), a link wraps the word before it.
            const wraps = c.kind === 'link' || c.kind === 'ref';
            const prefix = plainWords.slice(0, i + 1).join(' ') + (last && !wraps ? '.' : '');
            if (c.kind === 'link') {
              const url = `https://example.org/page/${id}`;
              word = `[${word}](${url})`;
              expected.push({ url, claim, prefix });
            } else if (c.kind === 'ref') {
              const url = `https://example.org/ref/${id}`;
              word = `[${word}][r${id}]`;
              defs.push(`[r${id}]: ${url}`);
              expected.push({ url, claim, prefix });
            } else if (c.kind === 'auto') {
              const url = `https://example.org/auto/${id}`;
              suffixes.push(` <${url}>`);
              expected.push({ url, claim, prefix });
            } else {
              const url = `https://example.org/note/${id}`;
              suffixes.push(`[^f${id}]`);
              defs.push(`[^f${id}]: Note ${id}, ${url}`);
              expected.push({ url, claim, prefix });
            }
          }
          out.push(word + (last ? '.' : '') + suffixes.join(''));
        });
        return out.join(' ');
      })
      .join(' '),
  );
  return { markdown: `${body.join('\n\n')}\n\n${defs.join('\n\n')}\n`, expected };
}

test('markdown citations: one per link and footnote reference, in order, whole-sentence claims', () => {
  fc.assert(
    fc.property(documentArb, (paragraphs) => {
      const { markdown, expected } = render(paragraphs);
      const doc = parseMarkdownDocument(markdown, { title: 'Generated' });
      assert.equal(doc.citations.length, expected.length, markdown);
      doc.citations.forEach((c, i) => {
        const e = expected[i]!;
        assert.equal(c.index, i);
        assert.equal(c.source.url, e.url, `citation ${i} out of order\n${markdown}`);
        assert.ok(c.claim.trim().length > 0);
        assert.equal(c.claim, e.claim, markdown);
        assert.equal(c.claimPrefix, e.prefix, markdown);
        assert.equal(doc.text.slice(c.charStart, c.charEnd), c.claim);
      });
      assert.deepEqual(doc.skipped, []);
    }),
    { numRuns: 300, seed: 14 },
  );
});
