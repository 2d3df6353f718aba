import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect } from '../../test/fixtures/corpus/collect.js';
import { FIXTURES, SAMPLES } from '../../test/fixtures/corpus/paths.js';
import { prepareDocument } from './prepare.js';
import { readFolder } from './read-folder.js';
import type { RawDocument } from './types.js';

const HTML = join(SAMPLES, 'html');
const FOLDER = join(FIXTURES, 'folder');

async function docs(path: string, skip?: number): Promise<RawDocument[]> {
  return (await collect(readFolder(path, { skip }))).map((r) => {
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    return r.doc;
  });
}

test('folder sample: recursive, sorted, ids are relative paths, titles from <title> / heading / file name', async () => {
  const got = await docs(HTML);
  assert.deepEqual(got.map((d) => d.id), ['lighthouses.html', 'notes/morse-code.md', 'readme.txt', 'tide-pools.html']);
  const byId = new Map(got.map((d) => [d.id, d]));
  assert.equal(byId.get('lighthouses.html')!.title, 'How lighthouses work');
  assert.equal(byId.get('notes/morse-code.md')!.title, 'Morse code at sea');
  assert.equal(byId.get('readme.txt')!.title, 'readme');
  assert.match(byId.get('tide-pools.html')!.title, /^Life in tide pools/);
});

test('folder sample: HTML keeps the article and drops navigation, sidebar, footer, scripts', async () => {
  const byId = new Map((await docs(HTML)).map((d) => [d.id, d]));
  const tide = byId.get('tide-pools.html')!;
  const html = readFileSync(join(HTML, 'tide-pools.html'), 'utf8');
  for (const kept of ['A tide pool is a rocky pool', 'Dr. Smith, a marine biologist', 'Check the tide tables']) {
    assert.ok(html.includes(kept.split(',')[0]!));
    assert.ok(tide.text!.includes(kept), `kept: ${kept}`);
  }
  for (const dropped of ['Subscribe to our newsletter', 'Popular posts', 'All rights reserved', 'window.analytics', 'font-family']) {
    assert.ok(html.includes(dropped), `the page does contain "${dropped}"`);
    assert.ok(!tide.text!.includes(dropped), `dropped: ${dropped}`);
  }
  assert.equal(tide.url, 'https://example.org/coast-notes/tide-pools');
  assert.deepEqual(tide.links, ['https://en.wikipedia.org/wiki/Tide_pool'], 'only links of the article, absolute ones');
  const light = byId.get('lighthouses.html')!;
  for (const dropped of ['Shopping cart', 'Share this page', 'Cookie settings']) assert.ok(!light.text!.includes(dropped), dropped);
  assert.ok(light.text!.includes('Augustin-Jean Fresnel'));
});

test('folder sample: paragraphs and list items stay apart, so sentences are not glued together', async () => {
  const tide = (await docs(HTML)).find((d) => d.id === 'tide-pools.html')!;
  const sentences = prepareDocument(tide).sentences;
  assert.ok(sentences.includes('Wear shoes with a good grip.'));
  assert.ok(sentences.includes('Check the tide tables before you go.'));
  assert.ok(sentences.every((s) => !/\.[A-Z]/.test(s)), 'no "end.Start" joins');
});

test('folder sample: Markdown syntax, front matter and code blocks are removed; links kept', async () => {
  const md = (await docs(HTML)).find((d) => d.id === 'notes/morse-code.md')!;
  assert.ok(!md.text!.includes('author:'));
  assert.ok(!md.text!.includes('**'));
  assert.ok(!md.text!.includes('... --- ...'));
  assert.ok(!md.text!.includes('](http'));
  assert.ok(md.text!.includes('Ships used the SOS signal'));
  assert.deepEqual(md.links, ['https://en.wikipedia.org/wiki/Morse_code']);
});

test('folder fixture: hidden and non-text files skipped, BOM/CRLF handled, empty file is an empty document', async () => {
  const got = await docs(FOLDER);
  assert.deepEqual(got.map((d) => d.id), ['crlf-bom.txt', 'empty.txt', 'nested/deep/page.md', 'no-article.html']);
  const crlf = got[0]!;
  assert.equal(crlf.text!.charCodeAt(0), 'T'.charCodeAt(0));
  assert.deepEqual(prepareDocument(crlf).sentences, ['Title line', 'First paragraph here.', 'It has two sentences.']);
  assert.equal(got[1]!.text, '');
  assert.equal(got[2]!.title, 'Setext Title');
  assert.deepEqual(got[2]!.links, ['https://example.org/x']);
});

test('folder fixture: when Readability finds nothing, the body text is used (never scripts or styles)', async () => {
  const page = (await docs(FOLDER)).find((d) => d.id === 'no-article.html')!;
  assert.equal(page.title, 'Opening hours');
  assert.equal(page.text, 'Opening hours');
});

test('folder: skip resumes at the same file; a single file can be read; a missing folder throws', async () => {
  const all = await docs(HTML);
  assert.deepEqual(await docs(HTML, 2), all.slice(2));
  const one = await docs(join(HTML, 'readme.txt'));
  assert.deepEqual(one.map((d) => d.id), ['readme.txt']);
  const missing = join(FIXTURES, 'no-such-folder');
  await assert.rejects(collect(readFolder(missing)), (e: Error) => e.message.includes(missing));
});

test('folder: a file that is not UTF-8 is a bad record naming file, line and column; the other files are read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'veracite-folder-utf8-'));
  try {
    writeFileSync(join(dir, 'a-good.txt'), 'Lighthouses guide ships.\nThey stand on rocks.\n');
    // Latin-1 "café" (0xE9 alone is not UTF-8) on line 2, column 4.
    writeFileSync(join(dir, 'b-latin1.txt'), Buffer.concat([Buffer.from('First line.\ncaf'), Buffer.from([0xe9]), Buffer.from(' au lait.\n')]));
    writeFileSync(join(dir, 'c-good.md'), '# Tides\n\nThe tide rises twice a day.\n');
    const results = await collect(readFolder(dir));
    assert.deepEqual(results.map((r) => (r.ok ? r.doc.id : 'error')), ['a-good.txt', 'error', 'c-good.md']);
    const bad = results[1]!;
    assert.ok(!bad.ok);
    assert.equal(bad.error.message, `${join(dir, 'b-latin1.txt')}:2: invalid UTF-8 at column 4: save the file as UTF-8 and index it again`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
