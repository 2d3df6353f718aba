/**
 * Throughput of the corpus stage on this machine: the sentence splitter (words/s, fast path vs wink on
 * the whole text, and how often they agree), chunking (passages/s), and read -> prepare -> chunk end to
 * end (passages/s), on SciFact abstracts. Prints JSON. Not a test: timings vary by machine.
 *   node --import tsx bench/bench-corpus.ts [scifact corpus.jsonl] [--repeat 5]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SAMPLES } from '../test/fixtures/corpus/paths.js';
import { chunkPassages, countWords } from '../src/corpus/passages.js';
import { prepareDocument } from '../src/corpus/prepare.js';
import { readCorpus } from '../src/corpus/read-corpus.js';
import { splitSentences, splitSentencesWithWink } from '../src/corpus/sentences.js';
import type { Document } from '../src/corpus/types.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { repeat: { type: 'string', default: '5' } } });
const corpusPath = positionals[0] ?? join(SAMPLES, 'scifact', 'corpus.jsonl');
const repeat = Number(values.repeat);
const records = readFileSync(corpusPath, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { doc_id: number; title: string; abstract: string[] });
const texts = records.map((r) => r.abstract.join(' '));
const words = texts.reduce((n, t) => n + countWords(t), 0);

/** Best of `repeat` runs (after one warm-up), in seconds: the least disturbed measurement. */
function best(fn: () => void): number {
  fn();
  let min = Infinity;
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    fn();
    min = Math.min(min, (performance.now() - t) / 1000);
  }
  return min;
}

const fast = best(() => texts.forEach((t) => splitSentences(t)));
const wink = best(() => texts.forEach((t) => splitSentencesWithWink(t)));
let same = 0;
for (const t of texts) if (JSON.stringify(splitSentences(t)) === JSON.stringify(splitSentencesWithWink(t))) same++;

const docs: Document[] = records.map((r) => prepareDocument({ id: String(r.doc_id), title: r.title, sentences: r.abstract }));
let passages = 0;
const chunk = best(() => {
  passages = 0;
  for (const d of docs) passages += chunkPassages(d).length;
});

// End to end, as the ingest runs it: a generic JSONL file with unsplit text (splitting on the hot path)
// and the SciFact file itself (sentences given). The text file repeats the corpus to run for a while.
const dir = mkdtempSync(join(tmpdir(), 'veracite-bench-'));
const textFile = join(dir, 'text.jsonl');
const copies = 10;
writeFileSync(textFile, Array.from({ length: copies }, (_, c) => records.map((r) => JSON.stringify({ id: `${c}-${r.doc_id}`, title: r.title, text: r.abstract.join(' ') })).join('\n')).join('\n') + '\n');
async function endToEnd(path: string, format: 'jsonl' | 'scifact'): Promise<{ passages: number; words: number; seconds: number }> {
  const t = performance.now();
  let n = 0;
  let w = 0;
  for await (const r of readCorpus(path, format)) {
    if (!r.ok) continue;
    for (const p of chunkPassages(prepareDocument(r.doc))) {
      n++;
      w += countWords(p.text);
    }
  }
  return { passages: n, words: w, seconds: (performance.now() - t) / 1000 };
}
await endToEnd(textFile, 'jsonl'); // warm-up
const e2eText = await endToEnd(textFile, 'jsonl');
const e2eGiven = await endToEnd(corpusPath, 'scifact');
rmSync(dir, { recursive: true, force: true });

const rate = (n: number, s: number) => Math.round(n / s);
console.log(
  JSON.stringify(
    {
      corpus: corpusPath,
      abstracts: texts.length,
      words,
      splitter: {
        fastWordsPerSecond: rate(words, fast),
        winkWholeTextWordsPerSecond: rate(words, wink),
        sameSplitShare: +(same / texts.length).toFixed(4),
      },
      chunk: { passages, passagesPerSecond: rate(passages, chunk) },
      endToEnd: {
        textJsonl: { passages: e2eText.passages, passagesPerSecond: rate(e2eText.passages, e2eText.seconds), wordsPerPassage: +(e2eText.words / e2eText.passages).toFixed(1) },
        scifactGivenSentences: { passages: e2eGiven.passages, passagesPerSecond: rate(e2eGiven.passages, e2eGiven.seconds) },
      },
      node: process.version,
    },
    null,
    2,
  ),
);
