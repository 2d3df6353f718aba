/**
 * Issue 38: a multistream dump read in parallel by stream with its index gives exactly the pages of a
 * sequential read, in the same order (so an ingest resumes at the same page); a bad index is named by
 * file and line; an index of another dump is refused.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planShares, readStreamOffsets, siblingIndexName } from './multistream-index.js';
import { readMediawiki } from './read-mediawiki.js';
import { multistreamIndexOf } from './read-multistream.js';
import { writeMultistream } from './testing/write-multistream.js';
import type { ReadOptions, ReadResult, WikiPageEvent } from './types.js';

const FIXTURE = 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2';
const FIXTURE_INDEX = 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream-index.txt.bz2';
const convert = (wikitext: string, title: string) => `${title}: ${wikitext.length} chars of wikitext; ${wikitext.slice(0, 60)}`;

async function read(file: string, opts: ReadOptions): Promise<{ records: ReadResult[]; pages: WikiPageEvent[]; bytes: number[] }> {
  const records: ReadResult[] = [];
  const pages: WikiPageEvent[] = [];
  const bytes: number[] = [];
  for await (const r of readMediawiki(file, { wikitextToText: convert, onPage: (p) => pages.push(p), onBytes: (read) => bytes.push(read), ...opts })) records.push(r);
  return { records, pages, bytes };
}

describe('multistream dumps read in parallel by stream', () => {
  let dir: string;
  let big: string;
  let bigIndex: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-multistream-'));
    // 30 copies of the fixture's 9 pages (4 articles, 3 redirects, a disambiguation page, a talk page),
    // retitled, 7 pages a stream: 270 pages in 39 streams between the header and the closing tag.
    const xml = execFileSync('bzip2', ['-dc', FIXTURE], { encoding: 'utf8' });
    const head = xml.slice(0, xml.indexOf('  <page>'));
    const pages = xml.slice(xml.indexOf('  <page>'), xml.lastIndexOf('</mediawiki>'));
    const copies = Array.from({ length: 30 }, (_, c) => pages.replace(/<title>([^<]*)<\/title>/g, (_m, t: string) => `<title>${t} ${c}</title>`).replace(/<id>(\d{4})<\/id>/g, (_m, id: string) => `<id>${c}${id}</id>`));
    big = join(dir, 'enwiki-test-pages-articles-multistream.xml.bz2');
    bigIndex = join(dir, 'enwiki-test-pages-articles-multistream-index.txt.bz2');
    const made = writeMultistream(big, bigIndex, head + copies.join('') + '</mediawiki>\n', 7);
    assert.equal(made.pages, 270);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the index beside the dump by name, also in the split form', async () => {
    assert.equal(siblingIndexName('/d/enwiki-20240601-pages-articles-multistream.xml.bz2'), '/d/enwiki-20240601-pages-articles-multistream-index.txt.bz2');
    assert.equal(siblingIndexName('enwiki-20240601-pages-articles-multistream3.xml-p151574p311329.bz2'), 'enwiki-20240601-pages-articles-multistream-index3.txt-p151574p311329.bz2');
    assert.equal(siblingIndexName('enwiki-20240601-pages-articles.xml.bz2'), undefined);
    assert.deepEqual(await multistreamIndexOf(FIXTURE, { readWorkers: 2 }), { file: FIXTURE_INDEX, workers: 2 });
    assert.equal(await multistreamIndexOf(FIXTURE, { readWorkers: 0 }), undefined, '0 read workers: one thread, no index');
    assert.equal(await multistreamIndexOf(join(dir, 'other.xml.bz2'), {}), undefined, 'no index beside it');
  });

  it('the same records and page events, in the same order and with the same lines, with 1 and 2 workers as read sequentially', async () => {
    for (const file of [FIXTURE, big]) {
      const size = readFileSync(file).length;
      const offsets = await readStreamOffsets(file === big ? bigIndex : FIXTURE_INDEX, file, size);
      const sequential = await read(file, { readWorkers: 0 });
      assert.equal(sequential.bytes.at(-1), size);
      for (const workers of [1, 2]) {
        const parallel = await read(file, { readWorkers: workers });
        assert.deepEqual(parallel.records, sequential.records, `${file}, ${workers} workers: records`);
        assert.deepEqual(parallel.pages, sequential.pages, `${file}, ${workers} workers: page events`);
        assert.equal(parallel.bytes.at(-1), size, 'progress reaches the compressed size');
        const shares = planShares(offsets, size, workers);
        assert.ok(shares.length > workers, `${file}: more shares than workers (${shares.length})`);
        assert.deepEqual(parallel.bytes, shares.map((s) => s.end), 'progress share by share, in file order');
      }
      if (file === big) {
        assert.equal(sequential.records.length, 120, '4 articles x 30');
        assert.equal(sequential.pages.filter((p) => p.kind === 'redirect').length, 90);
        assert.equal(sequential.records[119]!.ok && sequential.records[119]!.doc.title, 'The Atlas (newspaper) 29');
        assert.ok(sequential.records.every((r) => r.ok && r.doc.url?.startsWith('https://en.wikipedia.org/wiki/')), 'the siteinfo of the first stream reaches every page');
      }
    }
  });

  it('resuming skips the same records in parallel as sequentially, converting none of them', async () => {
    const converted: string[] = [];
    const sequential = await read(big, { readWorkers: 0, skip: 57 });
    const parallel = await read(big, { readWorkers: 2, skip: 57, wikitextToText: (w, t) => (converted.push(t), convert(w, t)) });
    assert.equal(parallel.records.length, 120 - 57);
    assert.deepEqual(parallel.records, sequential.records);
    assert.equal(parallel.pages.length, 270 - 30, 'every main-namespace page still reported (an update needs them)');
    assert.equal(converted.length, 120 - 57);
  });

  it('names a bad index line by file and line; refuses an index of another dump', async () => {
    const lines = execFileSync('bzip2', ['-dc', bigIndex], { encoding: 'utf8' }).split('\n');
    const write = async (name: string, text: string) => {
      const f = join(dir, name);
      await writeFile(f, execFileSync('bzip2', ['-c'], { input: text }));
      return f;
    };
    const bad = await write('bad-index.txt.bz2', [...lines.slice(0, 2), 'not an index line', ...lines.slice(3)].join('\n'));
    await assert.rejects(read(big, { indexFile: bad }), /bad-index\.txt\.bz2:3: not a multistream index line \(expected "offset:page id:title"\): "not an index line"; use the index published with this dump \(or read the dump without it: --read-workers 0\)/);
    const past = await write('past-index.txt.bz2', [...lines.slice(0, 9), `99999999:1:Far`, ...lines.slice(9)].join('\n'));
    await assert.rejects(read(big, { indexFile: past }), /past-index\.txt\.bz2:10: stream offset 99999999 lies past the end of .*: this index belongs to another dump/);
    const down = await write('down-index.txt.bz2', [...lines.slice(0, 20), lines[0]!, ...lines.slice(20)].join('\n'));
    await assert.rejects(read(big, { indexFile: down }), /down-index\.txt\.bz2:21: stream offset \d+ comes after \d+: offsets must not go down/);
    // Offsets shifted by a byte: no stream starts there.
    const shifted = await write('shifted-index.txt.bz2', lines.map((l) => l.replace(/^(\d+):/, (_m, o: string) => `${Number(o) + 1}:`)).join('\n'));
    await assert.rejects(read(big, { indexFile: shifted }), /no bzip2 stream starts at byte \d+ \(an offset of its multistream index\): the index does not belong to this dump/);
    await assert.rejects(read(big, { indexFile: join(dir, 'missing-index.txt.bz2') }), /missing-index\.txt\.bz2: no such multistream index file \(--index-file\)/);
  });

  it('XML broken inside a stream is named by the line of the whole file, as read sequentially', async () => {
    const xml = execFileSync('bzip2', ['-dc', big], { encoding: 'utf8' }).replace('<title>Goryeo ware 17</title>', '<title>Goryeo ware 17</titel>');
    const broken = join(dir, 'broken-pages-articles-multistream.xml.bz2');
    const brokenIndex = join(dir, 'broken-pages-articles-multistream-index.txt.bz2');
    writeMultistream(broken, brokenIndex, xml, 7);
    const line = xml.split('\n').findIndex((l) => l.includes('Goryeo ware 17')) + 1;
    const sequential = await read(broken, { readWorkers: 0 }).then(() => '', (e: Error) => e.message);
    const parallel = await read(broken, { readWorkers: 2 }).then(() => '', (e: Error) => e.message);
    assert.match(sequential, new RegExp(`broken-pages-articles-multistream\\.xml\\.bz2:${line}:\\d+: not a readable MediaWiki XML export`));
    assert.match(parallel, new RegExp(`broken-pages-articles-multistream\\.xml\\.bz2:${line}:\\d+: not a readable MediaWiki XML export`));
  });
});
