import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { checkedClaim, claimTextProblem, ClaimTextError, claimTooLongMessage, EMPTY_CLAIM_MESSAGE, MAX_CLAIM_CHARS } from './claim-text.js';

describe('claim text: one rule for every edge', () => {
  it('an empty or whitespace claim is refused with one message', () => {
    for (const c of ['', '   ', '\n\t ']) assert.equal(claimTextProblem(c), EMPTY_CLAIM_MESSAGE, JSON.stringify(c));
    assert.throws(() => checkedClaim('   '), (e: unknown) => e instanceof ClaimTextError && e.message === EMPTY_CLAIM_MESSAGE);
  });

  it('a claim of NULs, zero-width spaces or punctuation only is empty; a control character is refused; other scripts and digits pass', () => {
    for (const c of ['\u0000\u0000', '\u200b\u200b\u200b', '\ufeff', '!!! ...', '\u2063']) assert.match(claimTextProblem(c) ?? 'accepted', /^the claim is empty: give the statement to check/, JSON.stringify(c));
    assert.match(claimTextProblem('Vitamin D\u0000 prevents fractures.') ?? 'accepted', /control character \(U\+0000\)/);
    assert.match(claimTextProblem('Title \u001b]0;PWNED\u0007 is wrong.') ?? 'accepted', /control character \(U\+001B\)/);
    for (const ok of ['Der Turm ist 26 Meter hoch.', '東京タワーの高さは333メートルです。', '42', 'Line one\nline two\twith a tab.']) assert.equal(claimTextProblem(ok), undefined, ok);
  });

  it('a claim over the cap is refused with its length; the cap counts the trimmed claim', () => {
    assert.equal(claimTextProblem('x'.repeat(MAX_CLAIM_CHARS + 1)), claimTooLongMessage(MAX_CLAIM_CHARS + 1));
    assert.match(claimTooLongMessage(50_000), /50000 characters; a claim may have at most 2000/);
    assert.equal(checkedClaim(`  ${'x'.repeat(MAX_CLAIM_CHARS)}  `).length, MAX_CLAIM_CHARS);
  });

  it('a batch record is named by file, line and field', () => {
    assert.throws(() => checkedClaim(' ', 'claims.jsonl:3 field "claim"'), (e: unknown) => e instanceof ClaimTextError && e.message === `claims.jsonl:3 field "claim": ${EMPTY_CLAIM_MESSAGE}`);
    assert.equal(claimTextProblem(42), 'the claim must be text, not number');
  });

  it('a good claim comes back trimmed', () => {
    assert.equal(checkedClaim('  Aspirin reduces fever. \n'), 'Aspirin reduces fever.');
  });
});
