/**
 * The model-free verification engine (`--scorer lexical`): the share of the claim's content words found in
 * the passage. For audits on machines without model weights and for fast tests; a report made with it
 * says so in its provenance.
 */
import type { Bm25Stats } from '../text/bm25-stats.js';
import { wordCoverage } from '../text/coverage.js';
import { contentTokens } from '../text/tfidf.js';
import type { ModelInfo, PairScorer, ScoredPair } from './types.js';

/**
 * Share of the claim's content words (IDF-weighted when corpus statistics are given) found in the
 * passage: in [0, 1] and comparable across calls, which a PairScorer must be. Not a verification model:
 * it cannot see negation or a changed number, so a report made with it says so in its provenance.
 */
export class LexicalPairScorer implements PairScorer {
  readonly info: ModelInfo = { id: 'lexical-overlap', version: '1', backend: 'lexical' };
  constructor(private readonly stats?: Bm25Stats) {}

  async score(pairs: ScoredPair[]): Promise<number[]> {
    return pairs.map((p) => this.overlap(p.query, p.passage));
  }

  private overlap(query: string, passage: string): number {
    const idf = this.stats ? (t: string) => this.stats!.idf(t) : undefined;
    return wordCoverage([...new Set(contentTokens(query))], new Set(contentTokens(passage)), idf);
  }
}
