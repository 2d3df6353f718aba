/**
 * Issue 45 item 2: a MediaWiki page over the page budget is never held. The budget itself, at its default
 * (64 MB), over a page streamed in 1 MB pieces with tags cut across pieces; then the reader, sequential
 * and by stream, over a generated dump holding a page of 3 MB (budget 1 MB here) and a bzip2 "bomb" that
 * inflates ~40,000 times (a 64 MB page from ~1.6 KB): each becomes a bad record naming the page, the pages
 * around them are read with their lines right.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MAX_PAGE_BYTES, PageBudget } from './page-budget.js';
import { readMediawiki } from './read-mediawiki.js';
import { EXPORT_HEAD, EXPORT_TAIL, pageXml } from './testing/synthetic-dump.js';
import type { ReadResult } from './types.js';

const bz2 = (input: string | Buffer) => execFileSync('bzip2', ['-c'], { input, maxBuffer: 1 << 28 });

async function read(file: string, opts: { readWorkers: number; maxPageBytes: number }): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  for await (const r of readMediawiki(file, { wikitextToText: (w) => w, ...opts })) out.push(r);
  return out;
}

describe('the page budget', () => {
  it('at its default, drops a page of 64 MB + 1 streamed in 1 MB pieces, keeps its title, id and size, and passes the next page whole', () => {
    const out: string[] = [];
    const budget = new PageBudget(DEFAULT_MAX_PAGE_BYTES, (t) => out.push(t));
    const open = '  <page>\n    <title>Big &amp; bad</title>\n    <ns>0</ns>\n    <id>7</id>\n    <revision><text>';
    const close = '</text></revision>\n  </page>\n';
    // The page runs from its "<page>" to its "</page>": one char over the budget.
    const fill = DEFAULT_MAX_PAGE_BYTES + 1 - (open.length - 2) - (close.length - 1);
    const line = 'x'.repeat(1023) + '\n';
    // Pieces cut inside "<page>" and "</page>".
    budget.push('<mediawiki>\n' + open.slice(0, 5));
    budget.push(open.slice(5));
    let left = fill;
    while (left > 0) {
      const n = Math.min(left, 1 << 20);
      budget.push(line.repeat(Math.ceil(n / line.length)).slice(0, n));
      left -= n;
    }
    budget.push(close.slice(0, 24));
    budget.push(close.slice(24) + pageXml(8).slice(0, 5));
    budget.push(pageXml(8).slice(5) + EXPORT_TAIL);
    budget.end();
    const text = out.join('');
    assert.equal(budget.dropped, 1);
    assert.ok(text.length < 4096, `the big page is not passed on (${text.length} chars)`);
    assert.match(text, /^<mediawiki>\n {2}<page><title>Big &amp; bad<\/title><ns>0<\/ns><id>7<\/id><oversize>\d+<\/oversize><\/page>\n {2}<page>\n {4}<title>Page 8<\/title>/);
    assert.ok(Number(/<oversize>(\d+)</.exec(text)![1]) > DEFAULT_MAX_PAGE_BYTES);
    assert.ok(text.endsWith(pageXml(8) + EXPORT_TAIL), 'the next page whole');
    // The big page's own newlines (4 in its head, one each 1 KB of text, 1 in its tail) are counted, not passed.
    assert.equal(budget.lineOffset, 4 + Math.floor(fill / 1024) + 1);
  });

  describe('in the reader', () => {
    let dir: string;
    let plain: string;
    let multistream: string;
    const maxPageBytes = 1024 * 1024;
    // Page 2: 3 MB of text on many lines; page 4: 64 MB of one letter, as a bzip2 stream of its own.
    const big = pageXml(2, { text: `'''Big''' ${'word '.repeat(600_000)}\n${'line\n'.repeat(1000)}` });
    const bombOpen = '  <page>\n    <title>Bomb</title>\n    <ns>0</ns>\n    <id>4</id>\n    <revision>\n      <id>4</id>\n      <text xml:space="preserve">';
    const bombClose = '</text>\n    </revision>\n  </page>\n';
    const head = EXPORT_HEAD + pageXml(1) + big + pageXml(3);
    const tail = pageXml(5) + pageXml(6) + EXPORT_TAIL;
    const lines = (s: string) => s.split('\n').length - 1;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'vc-pagebudget-'));
      const bombText = bz2(Buffer.alloc(64 * 1024 * 1024, 'a'));
      assert.ok(bombText.length < 4096, `a bomb: ${bombText.length} bytes`);
      plain = join(dir, 'enwiki-budget-pages-articles.xml.bz2');
      await writeFile(plain, Buffer.concat([bz2(head + bombOpen), bombText, bz2(bombClose + tail)]));
      // The multistream form: the header, then a stream a page (the bomb's page in three streams: they
      // are one share), then the closing tag; its index lists each page's stream.
      multistream = join(dir, 'enwiki-budget-pages-articles-multistream.xml.bz2');
      const parts: Buffer[] = [bz2(EXPORT_HEAD)];
      const index: string[] = [];
      let offset = parts[0]!.length;
      const add = (id: number, title: string, streams: Buffer[]) => {
        index.push(`${offset}:${id}:${title}`);
        for (const s of streams) {
          parts.push(s);
          offset += s.length;
        }
      };
      add(1, 'Page 1', [bz2(pageXml(1))]);
      add(2, 'Page 2', [bz2(big)]);
      add(3, 'Page 3', [bz2(pageXml(3))]);
      add(4, 'Bomb', [bz2(bombOpen), bombText, bz2(bombClose)]);
      add(5, 'Page 5', [bz2(pageXml(5))]);
      add(6, 'Page 6', [bz2(pageXml(6))]);
      parts.push(bz2(EXPORT_TAIL));
      await writeFile(multistream, Buffer.concat(parts));
      await writeFile(join(dir, 'enwiki-budget-pages-articles-multistream-index.txt.bz2'), bz2(index.join('\n') + '\n'));
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    for (const [how, file, readWorkers] of [
      ['sequentially', () => plain, 0],
      ['by stream on 2 workers', () => multistream, 2],
    ] as const) {
      it(`${how}: the 2.9 MB page and the bomb are bad records naming them; pages 1, 3, 5, 6 are read, with their lines`, async () => {
        const records = await read(file(), { readWorkers, maxPageBytes });
        const ok = records.filter((r) => r.ok).map((r) => r.ok && r.doc.title);
        assert.deepEqual(ok, ['Page 1', 'Page 3', 'Page 5', 'Page 6']);
        const bad = records.filter((r) => !r.ok).map((r) => !r.ok && r.error.message);
        assert.equal(bad.length, 2);
        assert.match(bad[0]!, /field "revision\.text": page "Page 2" is 2\.9 MB of XML, over the page budget of 1\.0 MB: not read .*raise the budget with --max-page-mb if it is genuine/);
        assert.match(bad[1]!, /field "revision\.text": page "Bomb" is 64 MB of XML, over the page budget of 1\.0 MB/);
        // Lines of the pages after the dropped ones are the file's own.
        const page5 = records.find((r) => r.ok && r.doc.title === 'Page 5');
        assert.ok(page5?.ok);
        assert.equal(page5.loc.line, lines(head + bombOpen + bombClose) + 1);
      });
    }
  });
});
