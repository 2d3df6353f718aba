/**
 * Property: whatever mix of prose, refs, reuses, lists, headings and maintenance tags an article has,
 * every ref yields one citation or one skipped entry, every claim is non-empty, and the offsets point at
 * the claim (the whole sentence) and at its prefix (sentence start -> marker) in the article text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseWikitext } from './parse-wikitext.js';

const word = fc.constantFrom('river', 'town', 'church', 'Bodmin', 'market', '1497', 'council', 'the', 'of', 'mill', 'St.', 'Dr.', 'e.g.', '(1,500)');
const link = word.map((w) => `[[${w}]]`);
const bold = word.map((w) => `'''${w}'''`);
const piece = fc.oneof({ weight: 6, arbitrary: word }, { weight: 1, arbitrary: link }, { weight: 1, arbitrary: bold });

type Ref = { text: string; count: number };
const ref: fc.Arbitrary<Ref> = fc.oneof(
  fc.nat(50).map((n) => ({ text: `<ref>[http://r${n}.example.org Title ${n}]</ref>`, count: 1 })),
  fc.nat(50).map((n) => ({ text: `<ref name="n${n % 5}">{{cite web |url=http://n${n}.example.org |title=T}}</ref>`, count: 1 })),
  fc.nat(5).map((n) => ({ text: `<ref name="n${n}" />`, count: 1 })),
  fc.constant({ text: '{{sfn|Smith|2001|p=3}}', count: 1 }),
  fc.constant({ text: '{{citation needed|date=May 2020}}', count: 0 }),
  fc.constant({ text: '<ref>http://a.example.org</ref>{{Failed verification}}', count: 1 }),
);
const sentence = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(fc.nat(8), ref), { maxLength: 3 }), fc.constantFrom('.', '!', '?', '.'))
  .map(([pieces, refs, end]) => {
    const words = pieces.map((p) => ({ text: p, refs: [] as Ref[] }));
    const tail: Ref[] = [];
    for (const [at, r] of refs) (at < words.length ? words[at]!.refs : tail).push(r);
    const text = words.map((w) => w.text + w.refs.map((r) => r.text).join('')).join(' ') + end + tail.map((r) => r.text).join('');
    return { text, refs: [...words.flatMap((w) => w.refs), ...tail] };
  });
const block = fc.oneof(
  fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => ({ text: s.map((x) => x.text).join(' '), refs: s.flatMap((x) => x.refs) })),
  fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => ({ text: s.map((x) => `* ${x.text}`).join('\n'), refs: s.flatMap((x) => x.refs) })),
  fc.constantFrom('== History ==', '=== Early years ===', '== See also ==').map((h) => ({ text: h, refs: [] as Ref[] })),
);

test('any article: one citation or skip per ref, non-empty claims, offsets that point at the claim', () => {
  fc.assert(
    fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
      const wikitext = blocks.map((b) => b.text).join('\n\n');
      const a = parseWikitext(wikitext, { title: 'P' });
      const expected = blocks.flatMap((b) => b.refs).reduce((n, r) => n + r.count, 0);
      assert.equal(a.citations.length + a.skipped.length, expected, wikitext);
      for (const c of a.citations) {
        assert.ok(c.claim.length > 0, wikitext);
        assert.equal(a.text.slice(c.charStart, c.charEnd), c.claim, wikitext);
        assert.ok(c.claimPrefix.length > 0 && c.claimPrefixEnd <= c.charEnd, wikitext);
        assert.equal(a.text.slice(c.charStart, c.claimPrefixEnd), c.claimPrefix, wikitext);
        assert.ok(c.context.length <= 5);
      }
      for (const u of a.uncitedClaims) {
        assert.equal(a.text.slice(u.charStart, u.charEnd), u.claim);
        assert.equal(a.text.slice(u.charStart, u.claimPrefixEnd), u.claimPrefix);
      }
      // Markers in one sentence share its claim: citations with the same start have the same claim.
      const byStart = new Map<number, string>();
      for (const c of a.citations) {
        assert.equal(byStart.get(c.charStart) ?? c.claim, c.claim, wikitext);
        byStart.set(c.charStart, c.claim);
      }
      assert.ok(!/[\uE000-\uE002]/.test(a.text));
    }),
    { numRuns: 150, seed: 20240611 },
  );
});
