/**
 * The Wikimedia dump readers on their own (issue 38): the forms a dump comes in read alike, bad XML and
 * bad pages are named by file and line, resuming skips without converting, progress reaches the file size.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { openDecompressed, bzip2ProgramOnPath } from './decompress.js';
import { readCirrus } from './read-cirrus.js';
import { detectFormat } from './read-corpus.js';
import { readMediawiki } from './read-mediawiki.js';
import type { ReadResult, WikiPageEvent } from './types.js';

const XML_BZ2 = 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2';
const CIRRUS = 'data/samples/wikimedia/enwiki-sample-cirrussearch-content.json.gz';
// A stand-in converter: the reader's contract is to call it with each article's wikitext and title.
const firstLine = (wikitext: string, title: string) => `${title}: ${wikitext.split('\n').find((l) => /^'''/.test(l)) ?? ''}`;

async function all(it: AsyncIterable<ReadResult>): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  for await (const r of it) out.push(r);
  return out;
}

describe('Wikimedia dump readers', () => {
  let dir: string;
  let xml: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-wikiread-'));
    xml = execFileSync('bzip2', ['-dc', XML_BZ2], { encoding: 'utf8' });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the multistream .xml.bz2, plain .xml and .xml.gz alike; pages, kinds, links and URLs', async () => {
    const plain = join(dir, 'pages.xml');
    await writeFile(plain, xml);
    await writeFile(join(dir, 'pages.xml.gz'), gzipSync(xml));
    const runs: string[][] = [];
    for (const file of [XML_BZ2, plain, join(dir, 'pages.xml.gz')]) {
      assert.equal(await detectFormat(file), 'mediawiki');
      const pages: WikiPageEvent[] = [];
      let bytes = { read: 0, total: -1 };
      const docs = await all(readMediawiki(file, { wikitextToText: firstLine, onPage: (p) => pages.push(p), onBytes: (read, total) => (bytes = { read, total }) }));
      assert.ok(docs.every((r) => r.ok));
      runs.push(docs.map((r) => (r.ok ? r.doc.id : '')));
      assert.deepEqual(pages.map((p) => `${p.kind}:${p.id}`), ['article:Charlie_Milstead', 'article:Goryeo_ware', 'article:Alexander_Y_Type', 'article:The_Atlas_(newspaper)', 'redirect:Toronto,_Ontario', 'disambiguation:Atlas', 'redirect:Goryeo_celadon', 'redirect:Etaples_canton']);
      assert.equal(pages[4]!.target, 'Toronto');
      assert.equal(bytes.read, bytes.total, 'progress reaches the compressed size');
      const milstead = docs[0]!.ok ? docs[0]!.doc : undefined;
      assert.equal(milstead?.url, 'https://en.wikipedia.org/wiki/Charlie_Milstead');
      assert.match(milstead?.text ?? '', /^Charlie Milstead: '''Charles Frank Milstead'''/);
      assert.ok(milstead?.links?.includes('Houston_Oilers'));
      assert.ok(!milstead?.links?.some((l) => l.startsWith('File:') || l.startsWith('Category:')));
    }
    assert.deepEqual(runs[1], runs[0]);
    assert.deepEqual(runs[2], runs[0]);
  });

  it('resuming skips pages without converting them, and still reports them (an update needs every page)', async () => {
    const converted: string[] = [];
    const pages: string[] = [];
    const docs = await all(readMediawiki(XML_BZ2, { skip: 3, wikitextToText: (w, t) => (converted.push(t), w), onPage: (p) => pages.push(p.id) }));
    assert.deepEqual(docs.map((r) => (r.ok ? r.doc.id : '')), ['The_Atlas_(newspaper)']);
    assert.deepEqual(converted, ['The Atlas (newspaper)']);
    assert.equal(pages.length, 8);
  });

  it('names file, line and field: a page without a title, wikitext the parser rejects, XML that breaks off', async () => {
    const bad = join(dir, 'bad.xml');
    const noTitle = xml.replace('<title>Goryeo ware</title>', '');
    await writeFile(bad, noTitle);
    const line = noTitle.split('\n').findIndex((l) => l.includes('<id>1002</id>')) - 2; // 1-based line of its <page>
    const docs = await all(readMediawiki(bad, { wikitextToText: (w, t) => { if (t === 'Alexander Y Type') throw new Error('unbalanced template'); return w; } }));
    const errors = docs.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error.message));
    assert.equal(errors.length, 2);
    assert.match(errors[0]!, new RegExp(`bad\\.xml:${line} field "title": page without a title`));
    assert.match(errors[1]!, /bad\.xml:\d+ field "revision\.text": page "Alexander Y Type": wikitext could not be read \(unbalanced template\)/);
    const cut = join(dir, 'cut.xml');
    await writeFile(cut, xml.slice(0, xml.indexOf('<page>', 2000)) + '<page><title>Broken</tit');
    await assert.rejects(all(readMediawiki(cut, { wikitextToText: firstLine })), /cut\.xml:\d+:\d+: not a readable MediaWiki XML export/);
    await assert.rejects(all(readMediawiki(bad)), /needs a wikitext parser/);
  });

  it('decompresses bzip2 alike with the installed program and with unbzip2-stream (VERACITE_BZIP2=js); a corrupt file fails naming it', async () => {
    const corrupt = join(dir, 'corrupt.xml.bz2');
    const bytes = readFileSync(XML_BZ2);
    for (let i = 1200; i < 1300; i++) bytes[i] = bytes[i]! ^ 0x5a;
    await writeFile(corrupt, bytes);
    const texts: string[] = [];
    for (const mode of ['auto', 'js']) {
      const before = process.env['VERACITE_BZIP2'];
      process.env['VERACITE_BZIP2'] = mode;
      try {
        const { stream, decoder } = await openDecompressed(XML_BZ2);
        assert.equal(decoder === 'unbzip2-stream', mode === 'js' || !bzip2ProgramOnPath());
        const chunks: Buffer[] = [];
        for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
        texts.push(Buffer.concat(chunks).toString('utf8'));
        await assert.rejects(all(readMediawiki(corrupt, { wikitextToText: firstLine })), /corrupt\.xml\.bz2:\d+:\d+: not a readable MediaWiki XML export/);
      } finally {
        if (before === undefined) delete process.env['VERACITE_BZIP2'];
        else process.env['VERACITE_BZIP2'] = before;
      }
    }
    assert.equal(texts[0], xml);
    assert.equal(texts[1], xml);
  });

  it('reads the CirrusSearch bulk file: action lines paired with documents, a bad line named by file and line', async () => {
    assert.equal(await detectFormat(CIRRUS), 'cirrus');
    const pages: WikiPageEvent[] = [];
    const docs = await all(readCirrus(CIRRUS, { onPage: (p) => pages.push(p) }));
    assert.deepEqual(docs.map((r) => (r.ok ? r.doc.id : '')), ['Charlie_Milstead', 'Goryeo_ware', 'Alexander_Y_Type', 'The_Atlas_(newspaper)']);
    assert.deepEqual(pages.filter((p) => p.kind !== 'article').map((p) => `${p.kind}:${p.id}`), ['redirect:Goryeo_celadon', 'disambiguation:Atlas']);
    const bad = join(dir, 'cirrus.json');
    await writeFile(bad, ['{"index":{"_id":"1"}}', '{"namespace":0,"title":"A","text":"Alpha text."}', '{"index":{"_id":"2"}}', '{"namespace":0,"text":"no title"}', '{"index":{"_id":"3"}}', '{"namespace":1,"title":"Talk:A","text":"x"}', ''].join('\n'));
    const r = await all(readCirrus(bad, { lang: 'de' }));
    assert.equal(r.length, 2);
    assert.equal(r[0]!.ok && r[0]!.doc.url, 'https://de.wikipedia.org/wiki/A');
    assert.match(r[1]!.ok ? '' : r[1]!.error.message, /cirrus\.json:4 field "title"/);
  });

  it('CirrusSearch: a document line over the page budget is named and skipped, never held; the next document reads (gzip, 40 MB line)', async () => {
    // A 40 MB document line (no newline inside, as a damaged or hostile dump has it) between two good ones, gzipped
    // to ~40 KB: at a 1 MB budget it is a bad record naming its line and size, and readline's whole-line hold is gone.
    const big = `{"namespace":0,"title":"Huge","text":"${'a'.repeat(40 * 1024 * 1024)}"}`;
    const file = join(dir, 'cirrus-big.json.gz');
    await writeFile(file, gzipSync(['{"index":{"_id":"1"}}', '{"namespace":0,"title":"Before","text":"Before text."}', '{"index":{"_id":"2"}}', big, '{"index":{"_id":"3"}}', '{"namespace":0,"title":"After","text":"After text."}', ''].join('\n')));
    const heapBefore = process.memoryUsage().heapUsed;
    const r = await all(readCirrus(file, { maxPageBytes: 1024 * 1024 }));
    assert.deepEqual(r.map((x) => (x.ok ? x.doc.id : 'bad')), ['Before', 'bad', 'After']);
    const err = r[1]!.ok ? '' : r[1]!.error.message;
    assert.match(err, /cirrus-big\.json\.gz:4 field "line": a line of 40\.0 MB, over the page budget of 1 MB: not read \(raise it with --max-page-mb/);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 30 * 1024 * 1024, 'the 40 MB line was never held');
    // Within a budget that fits, the same line is read.
    const ok = await all(readCirrus(file, { maxPageBytes: 64 * 1024 * 1024 }));
    assert.deepEqual(ok.map((x) => (x.ok ? x.doc.id : 'bad')), ['Before', 'Huge', 'After']);
  });
});
