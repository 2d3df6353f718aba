/**
 * A multistream dump read sequentially and in parallel by stream (issue 38): pages/s with 0 (one
 * thread), 1 and 2 read workers, for the reader alone (decompress + XML) and with the wikitext parser on
 * the worker pool `veracite index` uses. The dump is synthetic: the shared wikitext articles
 * (../shared/data/wikitext, 71 of them) repeated under new titles, 100 pages a stream as Wikimedia writes
 * them, with its index.
 *
 *   node --import tsx bench/bench-multistream.ts [--pages 3550] [--rounds 1] [--parser true] [--dir /tmp/bench-multistream] [--shared ../shared/data/wikitext]
 *
 * Saves bench/results/multistream-readers.json. Reading only (no index writes). Rounds alternate 0, 1, 2
 * workers, so a shared machine's changing load falls on each alike; CPU seconds include the bzip2 child
 * processes (Linux: /proc/self/stat), the figure load does not change.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WikitextPool } from '../src/app/wikitext-prose.js';
import { readMediawiki } from '../src/corpus/read-mediawiki.js';
import { writeMultistream } from '../src/corpus/testing/write-multistream.js';
import type { ReadOptions } from '../src/corpus/types.js';
import { saveBenchResult } from './util.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '3550' }, rounds: { type: 'string', default: '1' }, parser: { type: 'string', default: 'true' }, dir: { type: 'string', default: '/tmp/bench-multistream' }, shared: { type: 'string', default: '../shared/data/wikitext' } } });
const PAGES = Number(values.pages);
const DIR = values.dir!;
mkdirSync(DIR, { recursive: true });

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const articles = readdirSync(values.shared!).filter((f) => f.endsWith('.txt')).sort().map((f) => ({ title: f.replace(/\.txt$/, '').replace(/[-_]/g, ' '), text: readFileSync(join(values.shared!, f), 'utf8') }));
const fixture = execFileSync('bzip2', ['-dc', 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2'], { encoding: 'utf8' });
const parts: string[] = [fixture.slice(0, fixture.indexOf('  <page>'))];
for (let i = 0; i < PAGES; i++) {
  const a = articles[i % articles.length]!;
  const title = `${a.title} ${Math.floor(i / articles.length)}`;
  parts.push(`  <page>\n    <title>${esc(title)}</title>\n    <ns>0</ns>\n    <id>${i + 1}</id>\n    <revision>\n      <id>${100000 + i}</id>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text bytes="${Buffer.byteLength(a.text)}" xml:space="preserve">${esc(a.text)}</text>\n    </revision>\n  </page>\n`);
}
parts.push('</mediawiki>\n');
const dump = join(DIR, 'enwiki-bench-pages-articles-multistream.xml.bz2');
const made = writeMultistream(dump, join(DIR, 'enwiki-bench-pages-articles-multistream-index.txt.bz2'), parts.join(''), 100);
const xmlBytes = parts.reduce((a, p) => a + Buffer.byteLength(p), 0);
console.log(`${dump}: ${made.pages} pages in ${made.streams} streams, ${(statSync(dump).size / 2 ** 20).toFixed(1)} MB compressed, ${(xmlBytes / 2 ** 20).toFixed(1)} MB of XML`);

/** CPU seconds of the child processes this process has waited for (the bzip2 decoders), from /proc. */
function childCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

async function measure(label: string, readWorkers: number, opts: ReadOptions) {
  const load = loadavg()[0]!.toFixed(2);
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const child0 = childCpuSeconds();
  let pages = 0;
  for await (const r of readMediawiki(dump, { ...opts, readWorkers })) if (r.ok) pages++;
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // Children count in /proc only once reaped: give the last bzip2 exits a moment (not timed).
  await new Promise((r) => setTimeout(r, 1000));
  const r = { label, readWorkers, pages, seconds: +seconds.toFixed(2), pagesPerSecond: Math.round(pages / seconds), processCpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(1), bzip2CpuSeconds: +(childCpuSeconds() - child0).toFixed(1), loadBefore: load, loadAfter: loadavg()[0]!.toFixed(2) };
  console.log(JSON.stringify(r));
  return r;
}

const results = [];
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) for (const w of [0, 1, 2]) results.push(await measure('reader alone (decompress + XML, no wikitext parsing)', w, { wikitextToText: (text) => text }));
const pool = values.parser === 'true' ? new WikitextPool() : undefined;
if (pool) try {
  // Warm the parser threads first: their start (tsx) is not reading.
  await Promise.all(Array.from({ length: 4 }, () => pool.convert("'''x''' y.", 'x')));
  for (const w of [0, 1, 2]) results.push(await measure('with the wikitext parser on the worker pool (as veracite index)', w, { wikitextToText: pool.convert }));
} finally {
  await pool.close();
}
saveBenchResult('multistream-readers', { benchmark: 'multistream-readers', pages: made.pages, streams: made.streams, compressedBytes: statSync(dump).size, xmlBytes, note: 'readWorkers 0: the sequential reader (one SAX parser over bzip2 -dc); processCpuSeconds: every thread of this process; bzip2CpuSeconds: its bzip2 child processes', rounds, results });
