import { strict as assert } from 'node:assert';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readSourceArgument } from './source-argument.js';
import { SettingsError } from '../util/settings-error.js';
import { NotTextError } from '../util/not-text.js';

describe('veracite check: reading a source (--source, a pairs file)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-check-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a URL stays a URL (resolved as an audit resolves it), with the title given', async () => {
    assert.deepEqual(await readSourceArgument('https://example.org/a', 'A page'), { url: 'https://example.org/a', title: 'A page' });
  });

  it('a saved page is read by its extension: HTML and Markdown as such, anything else as plain text', async () => {
    const html = join(dir, 'page.html');
    await writeFile(html, '<html><body><p>The tower is 26 metres tall.</p></body></html>');
    // No title from the file name: it would be read as the page's words.
    assert.deepEqual(await readSourceArgument(html), { text: '<html><body><p>The tower is 26 metres tall.</p></body></html>', kind: 'html' });
    const md = join(dir, 'notes.MD');
    await writeFile(md, '# Notes\n\nIt rained.');
    assert.equal(((await readSourceArgument(md)) as { kind: string }).kind, 'markdown');
    const txt = join(dir, 'abstract.txt');
    await writeFile(txt, 'It rained.');
    assert.deepEqual(await readSourceArgument(txt, 'Weather'), { text: 'It rained.', title: 'Weather', kind: 'text' });
  });

  it('a PDF is read page by page into a document (the shipped seal survey)', async () => {
    const source = await readSourceArgument('data/samples/documents/sources/pdf/seal-survey-2021.pdf');
    assert.ok('document' in source);
    assert.equal(source.document.title, 'Grey seal survey 2021');
    assert.ok(source.document.sentences.length > 5, `${source.document.sentences.length} sentences`);
    assert.ok(source.document.sentences.some((s) => /pups/.test(s)));
  });

  it('a missing file or a broken PDF is an error that names the file and what to give instead', async () => {
    await assert.rejects(readSourceArgument(join(dir, 'nope.txt')), (e: unknown) => e instanceof SettingsError && /nope\.txt: no such file\. Give a saved page/.test(e.message));
    const bad = join(dir, 'broken.pdf');
    await writeFile(bad, 'not a pdf at all');
    await assert.rejects(readSourceArgument(bad), (e: unknown) => e instanceof SettingsError && /broken\.pdf as a PDF: /.test(e.message));
  });

  it('a binary file is "unreadable: not text", never decoded into control characters; a PDF without its extension is still a PDF', async () => {
    const bin = join(dir, 'image.txt');
    await writeFile(bin, Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('IDAT\u0001\u0002 doi:10.1000/182')]));
    await assert.rejects(readSourceArgument(bin), (e: unknown) => e instanceof NotTextError && /image\.txt: unreadable: not text \(NUL bytes/.test(e.message));
    const pdf = join(dir, 'survey-download');
    await copyFile('data/samples/documents/sources/pdf/seal-survey-2021.pdf', pdf);
    const source = await readSourceArgument(pdf);
    assert.ok('document' in source && source.document.sentences.some((s) => /pups/.test(s)));
  });
});
