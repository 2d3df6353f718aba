/**
 * Wikimedia dump readers at size (issue 38): pages/s and memory reading a MediaWiki .xml.bz2 (wikitext
 * parsed on this thread, and on the worker pool `veracite index` uses) and a CirrusSearch .json.gz, built
 * by repeating the sample articles of data/samples/wikimedia under new titles.
 *
 *   node --import tsx bench/bench-wikimedia.ts [--copies 500] [--dir tmp/bench-wikimedia]
 *
 * Saves bench/results/wikimedia-readers.json. Reading only (no index writes): the figures say how fast
 * pages reach the ingest, the part of an ingest that is new with these formats.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { WikitextPool, wikitextProse } from '../src/app/wikitext-prose.js';
import { readCirrus } from '../src/corpus/read-cirrus.js';
import { readMediawiki } from '../src/corpus/read-mediawiki.js';
import type { ReadResult } from '../src/corpus/types.js';
import { machine } from './util.js';

const { values } = parseArgs({ options: { copies: { type: 'string', default: '500' }, dir: { type: 'string', default: 'tmp/bench-wikimedia' } } });
const COPIES = Number(values.copies);
const DIR = values.dir!;
mkdirSync(DIR, { recursive: true });

const xml = execFileSync('bzip2', ['-dc', 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2'], { encoding: 'utf8', maxBuffer: 1 << 26 });
const head = xml.slice(0, xml.indexOf('  <page>'));
const body = xml.slice(xml.indexOf('  <page>'), xml.lastIndexOf('</mediawiki>'));
const parts: string[] = [head];
for (let c = 0; c < COPIES; c++) parts.push(body.replace(/<title>([^<]*)<\/title>/g, (_, t: string) => `<title>${t} ${c}</title>`));
parts.push('</mediawiki>\n');
const xmlFile = join(DIR, 'pages.xml.bz2');
writeFileSync(xmlFile, execFileSync('bzip2', ['-c'], { input: parts.join(''), maxBuffer: 1 << 28 }));
const cirrusLines = gunzipSync(readFileSync('data/samples/wikimedia/enwiki-sample-cirrussearch-content.json.gz')).toString('utf8').trim().split('\n');
const cirrus: string[] = [];
for (let c = 0; c < COPIES; c++) for (const l of cirrusLines) cirrus.push(l.startsWith('{"index"') ? l : l.replace(/"title":"([^"]*)"/, (_, t: string) => `"title":"${t} ${c}"`));
const cirrusFile = join(DIR, 'cirrus.json.gz');
writeFileSync(cirrusFile, gzipSync(cirrus.join('\n') + '\n'));
const uncompressed = parts.reduce((a, p) => a + Buffer.byteLength(p), 0);

async function measure(label: string, it: AsyncIterable<ReadResult>) {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  let pages = 0;
  let chars = 0;
  let peak = 0;
  for await (const r of it) {
    if (r.ok) {
      pages++;
      chars += r.doc.text?.length ?? 0;
    }
    if (pages % 200 === 0) peak = Math.max(peak, process.memoryUsage.rss());
  }
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const r = { label, pages, seconds: +seconds.toFixed(1), pagesPerSecond: Math.round(pages / seconds), processCpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(1), proseChars: chars, peakRssMb: Math.round(peak / 2 ** 20), load: loadavg().map((x) => x.toFixed(1)).join(' ') };
  console.log(JSON.stringify(r));
  return r;
}

const inThread = await wikitextProse();
const { decoder } = await (await import('../src/corpus/decompress.js')).openDecompressed(xmlFile).then((d) => (d.stream.destroy(), d));
console.log(`bzip2 decoder: ${decoder}`);
const results = [await measure('mediawiki .xml.bz2, parser on the main thread', readMediawiki(xmlFile, { wikitextToText: inThread }))];
const pool = new WikitextPool();
try {
  results.push(await measure(`mediawiki .xml.bz2, parser on ${Math.min(8, (await import('node:os')).availableParallelism())} worker threads`, readMediawiki(xmlFile, { wikitextToText: pool.convert })));
} finally {
  await pool.close();
}
results.push(await measure(`mediawiki .xml.bz2, no parsing (decompress with ${decoder} + XML only)`, readMediawiki(xmlFile, { wikitextToText: (w) => w })));
process.env['VERACITE_BZIP2'] = 'js';
results.push(await measure('mediawiki .xml.bz2, no parsing (decompress with unbzip2-stream + XML only)', readMediawiki(xmlFile, { wikitextToText: (w) => w })));
delete process.env['VERACITE_BZIP2'];
results.push(await measure('cirrus .json.gz', readCirrus(cirrusFile)));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/wikimedia-readers.json', JSON.stringify({ benchmark: 'wikimedia-readers', note: 'processCpuSeconds: every thread of this process (not a bzip2 child process); the pool figure includes starting its worker threads under tsx', copies: COPIES, articlesPerCopy: 4, xmlBytes: uncompressed, results, machine: machine(), createdAt: new Date().toISOString() }, null, 2));
