/**
 * Seeded synthetic corpus: documents of ~100-word passages drawn from a Zipf-like vocabulary, written as
 * generic JSONL (`id`, `title`, `text`) so the benchmark exercises the whole ingest path, sentence
 * splitting included. The same seed always gives the same corpus and queries.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

import { uniform } from '../src/util/rng.js';


const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'zi', 'ba', 'de', 'fu', 'go', 'hi', 'ja', 'ku', 'li', 'mo', 'nu', 'pe', 'ri', 'so', 'ta', 'ul', 'ex', 'an', 'or', 'is'];

export class SyntheticText {
  readonly vocab: string[];
  private readonly cdf: Float64Array;
  constructor(readonly rand: () => number, vocabSize = 50_000, exponent = 1.07) {
    const seen = new Set<string>();
    this.vocab = [];
    while (this.vocab.length < vocabSize) {
      const n = 1 + Math.floor(rand() * 4);
      let w = '';
      for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
      if (!seen.has(w)) {
        seen.add(w);
        this.vocab.push(w);
      }
    }
    // Zipf: P(rank r) ∝ 1 / r^s, sampled by binary search on the cumulative distribution.
    this.cdf = new Float64Array(vocabSize);
    let sum = 0;
    for (let r = 0; r < vocabSize; r++) this.cdf[r] = sum += 1 / Math.pow(r + 1, exponent);
    for (let r = 0; r < vocabSize; r++) this.cdf[r]! /= sum;
  }
  word(): string {
    return this.vocab[this.rank()]!;
  }
  /** A vocabulary rank drawn from the Zipf distribution. */
  rank(): number {
    const u = this.rand();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  sentence(): string {
    const n = 8 + Math.floor(this.rand() * 18);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(this.word());
    const s = words.join(' ');
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  }
  /** About `words` words of sentences. */
  text(words: number): string {
    const out: string[] = [];
    let count = 0;
    while (count < words) {
      const s = this.sentence();
      out.push(s);
      count += s.split(' ').length;
    }
    return out.join(' ');
  }
  query(minWords = 2, maxWords = 5): string {
    const n = minWords + Math.floor(this.rand() * (maxWords - minWords + 1));
    // Queries favour mid-frequency words, as real queries do: skip the 50 most frequent.
    const words: string[] = [];
    while (words.length < n) {
      const r = this.rank();
      if (r >= 50) words.push(this.vocab[r]!);
    }
    return words.join(' ');
  }
}

export interface SyntheticCorpusOptions {
  seed: number;
  /** Target number of ~100-word passages. */
  passages: number;
  passagesPerDoc?: number;
}

/** Writes the corpus; returns the number of documents. */
export async function writeSyntheticCorpus(path: string, opts: SyntheticCorpusOptions): Promise<number> {
  const gen = new SyntheticText(uniform(opts.seed));
  const perDoc = opts.passagesPerDoc ?? 5;
  const docs = Math.ceil(opts.passages / perDoc);
  const out = createWriteStream(path);
  for (let d = 0; d < docs; d++) {
    // ~95 words per passage so greedy packing under 100 words gives about `perDoc` passages.
    const line = JSON.stringify({ id: `syn-${d}`, title: `${gen.word()} ${gen.word()} ${d}`, text: gen.text(perDoc * 92) }) + '\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return docs;
}

export function syntheticQueries(seed: number, n: number): string[] {
  const gen = new SyntheticText(uniform(seed));
  return Array.from({ length: n }, () => gen.query());
}
