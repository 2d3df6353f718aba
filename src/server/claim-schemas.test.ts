/**
 * The HTTP schemas take a claim as the CLI and the library do (verify/claim-text.ts: one cap, one message),
 * and refuse uploaded pages and articles that are binary data (util/not-text.ts), as the CLI refuses such
 * a file. The library's Veracite.verify / check refuse the same claims before any model loads.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Veracite } from '../app/veracite.js';
import { NotTextError } from '../util/not-text.js';
import { ClaimTextError, claimTooLongMessage, EMPTY_CLAIM_MESSAGE, MAX_CLAIM_CHARS } from '../verify/claim-text.js';
import { AuditCreateRequest, CitationCheckRequest, VerifyBatchRequest, VerifyRequest } from './schemas.js';

const messages = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
const BINARY = '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u0000\u0000\u0000\u0010\u0001\u0002\u0003';

describe('claims and uploaded text at the HTTP edge', () => {
  it('an empty, whitespace or too long claim gets the message the CLI gives', () => {
    assert.deepEqual(messages(VerifyRequest.safeParse({ claim: '   ' })), [`claim: ${EMPTY_CLAIM_MESSAGE}`]);
    assert.deepEqual(messages(VerifyRequest.safeParse({ claim: 'x'.repeat(MAX_CLAIM_CHARS + 1) })), [`claim: ${claimTooLongMessage(MAX_CLAIM_CHARS + 1)}`]);
    assert.deepEqual(messages(VerifyBatchRequest.safeParse({ claims: ['Aspirin reduces fever.', ' '] })), [`claims.1: ${EMPTY_CLAIM_MESSAGE}`]);
    assert.deepEqual(messages(CitationCheckRequest.safeParse({ claim: '', source: { text: 'It rained.' } })), [`claim: ${EMPTY_CLAIM_MESSAGE}`]);
    // NULs or zero-width spaces only, and a control character: the CLI's words, once each (not 200 and NOT ENOUGH INFO).
    assert.deepEqual(messages(VerifyRequest.safeParse({ claim: '\u0000\u0000' })), [`claim: ${EMPTY_CLAIM_MESSAGE} (it has no letter or digit)`]);
    assert.deepEqual(messages(VerifyRequest.safeParse({ claim: '\u200b\u200b\u200b' })), [`claim: ${EMPTY_CLAIM_MESSAGE} (it has no letter or digit)`]);
    assert.deepEqual(messages(VerifyRequest.safeParse({ claim: 'Rain \u001b[31mfell.' })), ['claim: the claim contains a control character (U+001B): give the statement as plain text']);
    assert.equal(VerifyRequest.parse({ claim: '  Aspirin reduces fever. ' }).claim, 'Aspirin reduces fever.');
  });

  it('a source text or an article upload that is binary data is "unreadable: not text"', () => {
    const check = messages(CitationCheckRequest.safeParse({ claim: 'It rained.', source: { text: BINARY } }));
    assert.ok(check.some((m) => /unreadable: not text \(NUL/.test(m)), check.join('; '));
    assert.deepEqual(messages(AuditCreateRequest.safeParse({ wikitext: BINARY })).map((m) => m.replace(/\(.*\)/, '(...)')), ['wikitext: unreadable: not text (...)']);
    assert.ok(CitationCheckRequest.safeParse({ claim: 'It rained.', source: { text: 'Café crème. It rained all day.' } }).success);
  });

  it('the library refuses the same claims before any model loads', async () => {
    const vc = await Veracite.open({ index: { dir: null } });
    try {
      await assert.rejects(vc.verify('   '), (e: unknown) => e instanceof ClaimTextError && e.message === EMPTY_CLAIM_MESSAGE);
      await assert.rejects(vc.check({ claim: 'z'.repeat(50_000), source: { text: 'It rained.' } }), (e: unknown) => e instanceof ClaimTextError && e.message === claimTooLongMessage(50_000));
    } finally {
      await vc.close();
    }
  });
});
