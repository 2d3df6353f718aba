/**
 * PDF limits before pdf.js: a decompression bomb is refused from its bytes (capped zlib, never more than
 * the budget inflated), an ordinary PDF passes, and image streams do not count.
 */
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { checkPdfLimits, inflatedSize, PdfLimitError } from './pdf-limits.js';
import { readPdf } from './pdf-text.js';

function pdfWith(streams: { dict: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  streams.forEach((s, i) => parts.push(Buffer.from(`${i + 1} 0 obj\n<< ${s.dict} /Length ${s.data.length} >>\nstream\n`), s.data, Buffer.from('\nendstream\nendobj\n')));
  parts.push(Buffer.from('%%EOF\n'));
  return Buffer.concat(parts);
}

describe('PDF limits', () => {
  const MB = 1024 * 1024;
  const bomb = pdfWith([{ dict: '/Filter /FlateDecode', data: deflateSync(Buffer.alloc(20 * MB, 0x20), { level: 9 }) }]);

  it('measures what the Flate streams inflate to, stopping past the limit', () => {
    assert.ok(bomb.length < 64 * 1024, `${bomb.length} bytes on disk`);
    assert.deepEqual(inflatedSize(bomb, 64 * MB), { bytes: 20 * MB, over: false });
    assert.equal(inflatedSize(bomb, 5 * MB).over, true);
  });

  it('a bomb is refused before pdf.js, naming the limit and its flag', async () => {
    assert.throws(() => checkPdfLimits(bomb, { maxInflatedBytes: 5 * MB }), (e: Error) => e instanceof PdfLimitError && /inflate to more than 5 MB .*--pdf-inflate-limit/.test(e.message));
    await assert.rejects(readPdf(bomb, { maxInflatedBytes: 5 * MB }), PdfLimitError);
  });

  it('image streams and streams under the limit pass', () => {
    const image = pdfWith([{ dict: '/Type /XObject /Subtype /Image /Filter /FlateDecode', data: deflateSync(Buffer.alloc(20 * MB)) }]);
    assert.deepEqual(inflatedSize(image, MB), { bytes: 0, over: false });
    const text = pdfWith([{ dict: '/Filter /FlateDecode', data: deflateSync(Buffer.from('BT (Hello) Tj ET')) }, { dict: '', data: Buffer.from('plain') }]);
    // an unfiltered stream counts its raw bytes up to endstream (its end-of-line included)
    assert.deepEqual(inflatedSize(text, MB), { bytes: 16 + 6, over: false });
  });
});
