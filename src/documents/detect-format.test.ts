/**
 * No silent drops (issue 35): a wikitext file whose first 64 KB hold no markup is still wikitext when a ref
 * or citation template comes later, and a document with no citation says how it was read.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { detectFormat, loadDocumentInput, noCitationsReason } from './load-document.js';

const lead = 'A lead without any markup at all. '.repeat(3000); // ~100 KB

describe('format detection over the whole file', () => {
  it('a ref past the first 64 KB makes the file wikitext, and its citation is read', async () => {
    const text = `${lead}A cited sentence.<ref>{{cite web |url=https://example.org/z |title=Z}}</ref>\n`;
    assert.equal(detectFormat('article.txt', Buffer.from(text)), 'wikipedia-wikitext');
    assert.equal(detectFormat('article.txt', Buffer.from(lead)), 'text');
    const dir = await mkdtemp(join(tmpdir(), 'veracite-detect-'));
    try {
      await writeFile(join(dir, 'late.txt'), text);
      const input = await loadDocumentInput(join(dir, 'late.txt'));
      assert.equal(input.citations.length, 1);
      assert.equal(input.citations[0]!.claim, 'A cited sentence.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says why a document gave no citation', () => {
    assert.match(noCitationsReason('text'), /^read as plain text: no DOI.*--format wikipedia-wikitext/);
    assert.match(noCitationsReason('wikipedia-wikitext'), /no <ref> in the prose/);
  });
});
