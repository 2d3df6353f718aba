/**
 * BM25 with corpus statistics: the source ranker's lexical features, the evaluation's BM25 baseline and the
 * lexical scorer's IDF weights all read the same statistics of an index (computed once per snapshot).
 */
import { contentTokens } from './tfidf.js';

/** Term frequencies and length of a tokenised text. */
export interface TermCounts {
  tf: Map<string, number>;
  length: number;
}

export function termCounts(tokens: readonly string[]): TermCounts {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: tokens.length };
}

export interface Bm25StatsJson {
  n: number;
  avgLength: number;
  df: [string, number][];
}

/** BM25 with corpus statistics (Robertson/Lucene form: k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + .5)/(df + .5))). */
export class Bm25Stats {
  private constructor(
    private readonly df: Map<string, number>,
    readonly n: number,
    readonly avgLength: number,
    readonly k1 = 1.2,
    readonly b = 0.75,
  ) {}

  static build(texts: Iterable<string>): Bm25Stats {
    const b = Bm25Stats.builder();
    for (const t of texts) b.add(t);
    return b.finish();
  }

  /** Incremental construction, for corpora streamed in batches (an index's passages). */
  static builder(): { add(text: string): void; finish(): Bm25Stats } {
    const df = new Map<string, number>();
    let n = 0;
    let total = 0;
    return {
      add(text: string) {
        const toks = contentTokens(text);
        n++;
        total += toks.length;
        for (const tok of new Set(toks)) df.set(tok, (df.get(tok) ?? 0) + 1);
      },
      finish: () => new Bm25Stats(df, n, n ? total / n : 0),
    };
  }

  /** Plain JSON (terms sorted, so equal statistics serialise to equal bytes). */
  toJSON(): Bm25StatsJson {
    return { n: this.n, avgLength: this.avgLength, df: [...this.df.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
  }

  static fromJSON(j: Bm25StatsJson): Bm25Stats {
    if (!Number.isFinite(j?.n) || !Number.isFinite(j?.avgLength) || !Array.isArray(j?.df)) throw new Error('corpus statistics: expected {n, avgLength, df: [[term, count], ...]}');
    return new Bm25Stats(new Map(j.df), j.n, j.avgLength);
  }

  /** Sum of the IDF of the query's distinct content words: divides a BM25 score into a per-query scale. */
  queryWeight(query: string): number {
    let s = 0;
    for (const t of new Set(contentTokens(query))) s += this.idf(t);
    return s;
  }

  idf(token: string): number {
    const d = this.df.get(token) ?? 0;
    return Math.log(1 + (this.n - d + 0.5) / (d + 0.5));
  }

  score(query: string, text: string): number {
    return this.scoreTokens(contentTokens(query), termCounts(contentTokens(text)));
  }

  /** `score` on pre-tokenised input: a text scored against several queries is tokenised once. */
  scoreTokens(queryTokens: readonly string[], text: TermCounts): number {
    const norm = this.k1 * (1 - this.b + (this.b * text.length) / (this.avgLength || 1));
    let s = 0;
    for (const q of queryTokens) {
      const f = text.tf.get(q);
      if (f) s += (this.idf(q) * f * (this.k1 + 1)) / (f + norm);
    }
    return s;
  }
}
