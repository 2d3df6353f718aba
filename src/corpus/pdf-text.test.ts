import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeScannedPdf, makeTextPdf } from '../../test/fixtures/pdf/make-pdf.js';
import { collect } from '../../test/fixtures/corpus/collect.js';
import { readPdf } from './pdf-text.js';
import { prepareDocument } from './prepare.js';
import { readFolder } from './read-folder.js';

const PAGE1 = [
  'Godrevy Lighthouse was built in 1859 by James Walker on Godrevy Island in St Ives Bay, Cornwall.',
  'The tower is 26 metres tall and octagonal. Its light was automated in 1939, after which the keepers left the island for good and the station was run from the shore by the corporation that',
];
const PAGE2 = [
  'maintained it. The light was converted to solar power in 1995. A well-known painting by Virginia Woolf is said to have drawn on the view of this light from her family’s summer house.',
  'Boats can reach the island only at high tide, and landing is forbidden during the nesting season of the seabirds that breed on the cliffs.',
];

describe('readPdf (pdf.js, page by page)', () => {
  it('reads every page of a text PDF, with its title, dropping running page numbers', async () => {
    for (const font of ['standard', 'embedded'] as const) {
      const pdf = await readPdf(await makeTextPdf([PAGE1, PAGE2], { title: 'Godrevy survey', font }));
      assert.ok(pdf.ok, font);
      assert.equal(pdf.numPages, 2);
      assert.equal(pdf.title, 'Godrevy survey');
      assert.match(pdf.pages[0]!, /^Godrevy Lighthouse was built in 1859 by James Walker/);
      assert.match(pdf.pages[1]!, /converted to solar power in 1995/);
      for (const p of pdf.pages) assert.doesNotMatch(p, /^\s*[12]\s*$/m, `${font}: page number line dropped`);
      // Paragraphs are separated by a blank line; wrapped lines by a single newline.
      assert.equal(pdf.pages[0]!.split('\n\n').length, 2, font);
    }
  });

  it('gives each sentence the page it starts on; a sentence across a page break stays whole', async () => {
    const pdf = await readPdf(await makeTextPdf([PAGE1, PAGE2]));
    assert.ok(pdf.ok);
    const doc = prepareDocument({ id: 'g', title: 'G', pages: pdf.pages });
    assert.equal(doc.sentencePages!.length, doc.sentences.length);
    const at = (start: string) => doc.sentences.findIndex((s) => s.startsWith(start));
    assert.equal(doc.sentencePages![at('Godrevy Lighthouse was built')], 1);
    const across = at('Its light was automated in 1939');
    assert.match(doc.sentences[across]!, /run from the shore by the corporation that maintained it\.$/);
    assert.equal(doc.sentencePages![across], 1);
    assert.equal(doc.sentencePages![at('The light was converted to solar power')], 2);
    assert.equal(doc.sentencePages![at('Boats can reach the island')], 2);
    assert.deepEqual([...doc.sentencePages!].sort((a, b) => a - b), doc.sentencePages, 'pages never go back');
  });

  it('reports a scan without text layer, a damaged file and a non-PDF as unreadable, with what to do', async () => {
    const scan = await readPdf(await makeScannedPdf(3, { title: 'Scanned minutes' }));
    assert.ok(!scan.ok);
    assert.match(scan.reason, /no text layer \(0 of 3 pages have text\).*OCR/);
    const damaged = await readPdf(new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF'));
    assert.ok(!damaged.ok);
    const notPdf = await readPdf(new TextEncoder().encode('<html><body>Not a PDF</body></html>'));
    assert.ok(!notPdf.ok);
    assert.match(notPdf.reason, /not a valid PDF/);
  });
});

describe('readFolder with PDFs', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-pdf-folder-'));
    await writeFile(join(dir, 'godrevy.pdf'), await makeTextPdf([PAGE1, PAGE2], { title: 'Godrevy survey' }));
    await writeFile(join(dir, 'scan.pdf'), await makeScannedPdf(2));
    await writeFile(join(dir, 'notes.txt'), 'A plain note about the lighthouse.');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads .pdf beside .txt, keeps pages, and names the scanned file in its error', async () => {
    const results = await collect(readFolder(dir));
    assert.equal(results.length, 3);
    const [pdf, notes, scan] = results;
    assert.ok(pdf!.ok && notes!.ok);
    assert.equal(pdf.doc.id, 'godrevy.pdf');
    assert.equal(pdf.doc.title, 'Godrevy survey');
    assert.equal(pdf.doc.pages!.length, 2);
    assert.ok(prepareDocument(pdf.doc).sentencePages!.includes(2));
    assert.ok(!scan!.ok);
    assert.match(scan.error.message, /scan\.pdf:0: no text layer/);
  });
});
