/**
 * A seeded FEVER-like Wikipedia: a folder of wiki-NNN.jsonl files in FEVER's wiki-pages format
 * (`{id, text, lines}`, one page a line, `N<TAB>sentence<TAB>anchor<TAB>target...` rows), so the scale
 * benchmark reads it with the real FEVER reader. Page lengths follow FEVER's shape: most pages are a short
 * lead section (median 3 sentences), with a long tail (log-normal, capped at 150 sentences); about one
 * sentence in four carries a hyperlink. Sentences come from the Zipf vocabulary of synthetic.ts.
 *
 * Queries are drawn from the pages themselves (2-5 mid-frequency words of a random sentence), so every
 * query has a known source page, the way a claim has its evidence page.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { uniform } from '../src/util/rng.js';
import { SyntheticText } from './synthetic.js';

export interface FeverLikeOptions {
  seed: number;
  documents: number;
  /** Pages per file (FEVER ships 109 files of 50,000 pages). */
  perFile?: number;
  gzip?: boolean;
  /** Queries to sample from the pages. */
  queries?: number;
  /**
   * Page lengths: 'fever' (lead sections, as FEVER's wiki-pages; 1.34 passages a page) or 'article'
   * (whole Wikipedia articles: ~7.2 passages a page, so 6.9M articles give ~50M passages).
   */
  shape?: 'fever' | 'article';
  onProgress?: (documents: number) => void;
}

export interface FeverLikeCorpus {
  dir: string;
  documents: number;
  sentences: number;
  files: number;
  queries: { text: string; docId: string }[];
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** Sentences in a page: log-normal, median 3, mean ~4.5, 0.5% of pages over 30 sentences, at most 150. */
export function pageSentences(rand: () => number): number {
  return Math.min(150, Math.max(1, Math.round(Math.exp(Math.log(3) + 0.9 * gaussian(rand)))));
}

/**
 * Sentences in a whole article: log-normal, median 12, mean ~25 (chunked at ~3.4 sentences a passage, as
 * the FEVER shape measured: ~7.2 passages a page), capped at 1,500. English Wikipedia's 6.9M articles chunk
 * into ~50M passages (issue 38), so the mean is set by that ratio; the long tail is what makes a few pages
 * hundreds of passages. (A first try at median 20 gave 15.8 passages a page.)
 */
export function articleSentences(rand: () => number): number {
  return Math.min(1500, Math.max(1, Math.round(Math.exp(Math.log(12) + 1.2 * gaussian(rand)))));
}

/** Writes the corpus into `dir` (reused when a complete one with the same options is there). */
export async function writeFeverLikeCorpus(dir: string, opts: FeverLikeOptions): Promise<FeverLikeCorpus> {
  const perFile = opts.perFile ?? 50_000;
  const key = corpusKey(opts, perFile);
  // Beside the folder, not in it: the folder holds only the corpus files.
  const metaPath = `${dir}.meta.json`;
  // The folder too: a bench run with --drop-corpus deletes the files and keeps the meta for its queries.
  if (existsSync(metaPath) && existsSync(dir)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as FeverLikeCorpus & { key: string };
    if (meta.key === key) return { ...meta, dir };
  }
  mkdirSync(dir, { recursive: true });
  const rand = uniform(opts.seed);
  const gen = new SyntheticText(rand);
  const frequent = new Set(gen.vocab.slice(0, 50));
  const state = { sentences: 0, queries: [] as { text: string; docId: string }[] };
  let files = 0;
  for (let start = 0; start < opts.documents; start += perFile) {
    await writeFile(dir, files++, start, Math.min(opts.documents, start + perFile), opts, gen, rand, frequent, state);
  }
  const corpus: FeverLikeCorpus = { dir, documents: opts.documents, sentences: state.sentences, files, queries: state.queries };
  writeFileSync(metaPath, JSON.stringify({ ...corpus, key }));
  return corpus;
}

/** What one of the processes that write a corpus in parallel wrote (`writeFeverLikePart`). */
export interface FeverLikePart {
  sentences: number;
  queries: { text: string; docId: string }[];
}

/**
 * One of `parts` processes writing a corpus in parallel (at tens of millions of pages one process takes an
 * hour): this one writes files part, part + parts, ..., each from its own seed (the corpus seed and the file
 * number), so the corpus is the same whatever the number of parts; the vocabulary comes from the corpus
 * seed, as in `writeFeverLikeCorpus` (whose corpus differs: one stream for all files). Each file has the
 * same chance per page of giving a query; `finishFeverLikeParts` keeps the first `queries` of them.
 */
export async function writeFeverLikePart(dir: string, opts: FeverLikeOptions, part: number, parts: number): Promise<FeverLikePart> {
  if (!(Number.isInteger(parts) && parts >= 1 && Number.isInteger(part) && part >= 0 && part < parts)) throw new Error(`part ${part} of ${parts}: expected 0 <= part < parts`);
  const perFile = opts.perFile ?? 50_000;
  mkdirSync(dir, { recursive: true });
  let current = uniform(opts.seed);
  const rand = () => current();
  const gen = new SyntheticText(rand);
  const frequent = new Set(gen.vocab.slice(0, 50));
  const state = { sentences: 0, queries: [] as { text: string; docId: string }[] };
  const nFiles = Math.ceil(opts.documents / perFile);
  for (let f = part; f < nFiles; f += parts) {
    // Each file its own stream: a different seed for every (corpus seed, file) pair.
    current = uniform((Math.imul(opts.seed, 0x9e3779b1) ^ Math.imul(f + 1, 0x85ebca6b)) >>> 0);
    // Each file its own query list too: the cap on queries skips draws, so a shared one would make a
    // file's pages depend on which files its process wrote before it.
    const file = { sentences: 0, queries: [] as { text: string; docId: string }[] };
    await writeFile(dir, f, f * perFile, Math.min(opts.documents, (f + 1) * perFile), opts, gen, rand, frequent, file);
    state.sentences += file.sentences;
    state.queries.push(...file.queries);
  }
  return state;
}

/** Writes the meta of a corpus written by `parts` (in part order) and returns it. */
export function finishFeverLikeParts(dir: string, opts: FeverLikeOptions, parts: FeverLikePart[]): FeverLikeCorpus {
  const perFile = opts.perFile ?? 50_000;
  const pageNumber = (q: { docId: string }) => Number(q.docId.split('_').pop());
  const queries = parts.flatMap((p) => p.queries).sort((a, b) => pageNumber(a) - pageNumber(b)).slice(0, opts.queries ?? 0);
  const corpus: FeverLikeCorpus = { dir, documents: opts.documents, sentences: parts.reduce((n, p) => n + p.sentences, 0), files: Math.ceil(opts.documents / perFile), queries };
  writeFileSync(`${dir}.meta.json`, JSON.stringify({ ...corpus, key: corpusKey(opts, perFile, 'per-file') }));
  return corpus;
}

function corpusKey(opts: FeverLikeOptions, perFile: number, seeding?: 'per-file'): string {
  return JSON.stringify({ seed: opts.seed, documents: opts.documents, perFile, gzip: !!opts.gzip, queries: opts.queries ?? 0, v: 1, ...(opts.shape === 'article' ? { shape: 'article-2' } : {}), ...(seeding ? { seeding } : {}) });
}

/** Pages start..end-1 into file number `f` (wiki-001.jsonl is number 0). */
async function writeFile(dir: string, f: number, start: number, end: number, opts: FeverLikeOptions, gen: SyntheticText, rand: () => number, frequent: Set<string>, state: FeverLikePart): Promise<void> {
  const wantQueries = opts.queries ?? 0;
  // Each page has the same chance of giving a query, so queries spread over the whole corpus.
  const queryRate = wantQueries / opts.documents;
  const name = `wiki-${String(f + 1).padStart(3, '0')}.jsonl${opts.gzip ? '.gz' : ''}`;
  const file = createWriteStream(join(dir, name));
  const out = opts.gzip ? createGzip({ level: 1 }) : file;
  if (opts.gzip) out.pipe(file);
  for (let d = start; d < end; d++) {
    const id = `${cap(gen.word())}_${cap(gen.word())}_${d}`;
    const n = opts.shape === 'article' ? articleSentences(rand) : pageSentences(rand);
    const rows: string[] = [];
    const texts: string[] = [];
    for (let s = 0; s < n; s++) {
      const sentence = gen.sentence();
      texts.push(sentence);
      let row = `${s}\t${sentence}`;
      if (rand() < 0.25) {
        const anchor = sentence.split(' ')[1] ?? 'link';
        row += `\t${anchor}\t${cap(anchor)}_${Math.floor(rand() * opts.documents)}`;
      }
      rows.push(row);
    }
    state.sentences += n;
    if (state.queries.length < wantQueries && rand() < queryRate) {
      const words = texts[Math.floor(rand() * texts.length)]!.toLowerCase().replace(/\./g, '').split(' ').filter((w) => !frequent.has(w));
      const k = Math.min(words.length, 2 + Math.floor(rand() * 4));
      if (k >= 2) state.queries.push({ text: words.slice(0, k).join(' '), docId: id });
    }
    const line = JSON.stringify({ id, text: texts.join(' '), lines: rows.join('\n') }) + '\n';
    if (!out.write(line)) await once(out, 'drain');
    if ((d + 1) % 100_000 === 0) opts.onProgress?.(d + 1);
  }
  out.end();
  await once(file, 'finish');
}

function cap(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}
