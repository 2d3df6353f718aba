/**
 * Readers at FEVER/KILT size, memory flat: streams a large synthetic KILT knowledge source (one JSON page
 * a line, long pages with anchors) and a gzipped FEVER wiki-pages folder through the real readers
 * (readCorpus -> prepareDocument -> chunkPassages, no store), sampling RSS every second. Flat memory means
 * the RSS at the end is about the RSS after the first tenth of the file.
 *   node --import tsx bench/bench-readers.ts [--kilt-pages 300000] [--fever-docs 1000000] [--dir tmp/readers]
 */
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkPassages } from '../src/corpus/passages.js';
import { prepareDocument } from '../src/corpus/prepare.js';
import { readCorpus } from '../src/corpus/read-corpus.js';
import type { CorpusFormat } from '../src/corpus/types.js';
import { uniform } from '../src/util/rng.js';
import { SyntheticText } from './synthetic.js';
import { writeFeverLikeCorpus } from './synthetic-fever.js';
import { dirSize, saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    'kilt-pages': { type: 'string', default: '300000' },
    'fever-docs': { type: 'string', default: '1000000' },
    dir: { type: 'string', default: 'tmp/readers' },
  },
});
const dir = values.dir!;
mkdirSync(dir, { recursive: true });

/** KILT-shaped pages: title as paragraph 0, sections, bullets, anchors; ~30 paragraphs on average. */
async function writeKilt(path: string, pages: number): Promise<void> {
  const rand = uniform(7);
  const gen = new SyntheticText(rand);
  const out = createWriteStream(path);
  for (let i = 0; i < pages; i++) {
    const title = `${gen.word()} ${gen.word()} ${i}`;
    const n = 5 + Math.floor(-Math.log(Math.max(rand(), 1e-9)) * 25);
    const text = [title];
    const anchors: { text: string; href: string; paragraph_id: number; start: number; end: number }[] = [];
    for (let p = 0; p < n; p++) {
      if (p % 6 === 5) text.push(`Section::::${gen.word()}.`);
      else if (p % 9 === 8) text.push(`BULLET::::- ${gen.sentence()}`);
      else text.push(gen.text(60));
      if (rand() < 0.5) anchors.push({ text: gen.word(), href: `${gen.word()}%20${gen.word()}`, paragraph_id: p, start: 0, end: 5 });
    }
    const line = JSON.stringify({ _id: String(i), wikipedia_id: String(i), wikipedia_title: title, text, anchors, categories: 'x', history: { url: `https://en.wikipedia.org/w/index.php?title=${encodeURIComponent(title)}` } }) + '\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function measure(path: string, format: CorpusFormat, bytes: number) {
  const samples: { records: number; rssMb: number }[] = [];
  let records = 0;
  let passages = 0;
  let peak = 0;
  const t0 = performance.now();
  let nextSample = t0;
  for await (const r of readCorpus(path, format)) {
    records++;
    if (!r.ok) throw r.error;
    passages += chunkPassages(prepareDocument(r.doc)).length;
    const now = performance.now();
    if (now >= nextSample) {
      nextSample = now + 1000;
      const rss = Math.round(process.memoryUsage.rss() / 2 ** 20);
      peak = Math.max(peak, rss);
      samples.push({ records, rssMb: rss });
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const tenth = samples.find((s) => s.records >= records / 10) ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  return {
    format,
    path,
    bytes,
    records,
    passages,
    seconds: +seconds.toFixed(1),
    mbPerSecond: +(bytes / 2 ** 20 / seconds).toFixed(1),
    rssAtTenthMb: tenth.rssMb,
    rssAtEndMb: last.rssMb,
    peakRssMb: peak,
    loadAverage: loadavg().map((x) => +x.toFixed(2)),
  };
}

const kiltPath = join(dir, `kilt-${values['kilt-pages']}.jsonl`);
if (!existsSync(kiltPath)) {
  console.log(`writing ${values['kilt-pages']} KILT pages`);
  await writeKilt(kiltPath, Number(values['kilt-pages']));
}
const kilt = await measure(kiltPath, 'kilt', statSync(kiltPath).size);
console.log(JSON.stringify(kilt));

const feverDir = join(dir, `fever-gz-${values['fever-docs']}`);
console.log(`writing ${values['fever-docs']} FEVER pages (gzipped folder)`);
await writeFeverLikeCorpus(feverDir, { seed: 3, documents: Number(values['fever-docs']), gzip: true });
const fever = await measure(feverDir, 'fever', dirSize(feverDir));
console.log(JSON.stringify(fever));
saveBenchResult('readers', { benchmark: 'readers', kilt, fever });
