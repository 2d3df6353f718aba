import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { assertText, NotTextError, notTextReason, TEXT_SAMPLE_BYTES } from './not-text.js';

/** The first bytes of a PNG file (signature, IHDR): what an image given as a page starts with. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61', 'hex');

/** Deterministic bytes without NUL: compressed or encrypted data looks like this. */
function noisyBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = 1 + ((x >>> 16) % 255);
  }
  return b;
}

describe('notTextReason: is an input text at all?', () => {
  it('text is text: ASCII, UTF-8 with accents and CJK, tabs and CRLF, an empty input', () => {
    for (const t of ['The tower is 26 metres tall.', 'Café crème, Zürich, 東京タワー\r\n\tindented', '']) {
      assert.equal(notTextReason(Buffer.from(t, 'utf8')), undefined, t);
      assert.equal(notTextReason(t), undefined, t);
    }
  });

  it('a Latin-1 page (a few invalid UTF-8 bytes) is still text', () => {
    assert.equal(notTextReason(Buffer.from('Le café de la gare ouvre à sept heures; la crème brûlée est célèbre.', 'latin1')), undefined);
  });

  it('a multi-byte character cut by the sample boundary is not an error', () => {
    const text = Buffer.from(`${'a'.repeat(TEXT_SAMPLE_BYTES - 1)}é and more`, 'utf8');
    assert.equal(notTextReason(text), undefined);
  });

  it('binary data is not text: NUL bytes (an image), or control bytes and invalid UTF-8 without NUL', () => {
    assert.match(notTextReason(PNG)!, /NUL bytes/);
    assert.match(notTextReason(noisyBytes(4096))!, /% control characters or invalid UTF-8 in the first 4096 bytes/);
    assert.match(notTextReason('abc\u0000def')!, /NUL/);
    // A JSON string holding a binary file decoded lossily: replacement characters and control characters.
    assert.match(notTextReason(noisyBytes(2000).toString('utf8'))!, /control characters or invalid UTF-8/);
  });

  it('assertText throws NotTextError naming the input and "unreadable: not text"', () => {
    assert.throws(() => assertText(PNG, 'photo.txt'), (e: unknown) => e instanceof NotTextError && /^photo\.txt: unreadable: not text \(NUL bytes/.test(e.message));
    assert.doesNotThrow(() => assertText('It rained.', 'x'));
  });
});
