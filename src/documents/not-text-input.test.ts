/** An audit input that is binary data is refused ("unreadable: not text"), not parsed into citations; a PDF is still read. */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadArticleInput } from '../audit/article-input.js';
import { NotTextError } from '../util/not-text.js';
import { loadDocumentInput } from './load-document.js';

/** Noise without NUL bytes (compressed data), with DOIs in it: today's plain-text reader found "citations" in such files. */
function noise(): Buffer {
  const b = Buffer.alloc(3000);
  let x = 7;
  for (let i = 0; i < b.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = 1 + ((x >>> 16) % 255);
  }
  return Buffer.concat([b, Buffer.from(' doi:10.1000/182 doi:10.1000/183 doi:10.1000/184 ')]);
}

describe('binary audit input', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-not-text-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('loadDocumentInput and loadArticleInput refuse a binary file, with or without NUL bytes', async () => {
    const files = { 'archive.bin': noise(), 'image.txt': Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d', 'hex'), noise()]) };
    for (const [name, bytes] of Object.entries(files)) {
      const path = join(dir, name);
      await writeFile(path, bytes);
      await assert.rejects(loadDocumentInput(path), (e: unknown) => e instanceof NotTextError && e.message.startsWith(`${path}: unreadable: not text (`));
      await assert.rejects(loadArticleInput(path), NotTextError);
    }
  });

  it('a PDF and a Latin-1 text file are still read', async () => {
    const pdf = await loadDocumentInput('data/samples/documents/sources/pdf/seal-survey-2021.pdf');
    assert.equal(pdf.kind, 'pdf');
    const latin1 = join(dir, 'notes.txt');
    await writeFile(latin1, Buffer.from('Le café ouvre à sept heures (Dupont 2019, doi:10.1000/182).', 'latin1'));
    assert.equal((await loadDocumentInput(latin1)).kind, 'text');
  });
});
