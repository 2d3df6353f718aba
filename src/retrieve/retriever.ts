/**
 * The retrieval front door: a query (plain text or a claim in its article context) -> ranked passages
 * and documents, by BM25, dense vectors, or both fused. Every result carries its provenance.
 */
import { isUseModel, type Embedder, type ModelInfo } from '../models/types.js';
import { configHash } from '../provenance/config-hash.js';
import type { Store } from '../store/types.js';
import { SettingsError } from '../util/settings-error.js';
import { fuse, type FusionConfig } from './fusion.js';
import { groupByDocument } from './group-documents.js';
import { buildQueries, DENSE_QUERY_WORDS, type ClaimInContext } from './query-building.js';
import { densePassages } from './search-dense.js';
import type { RankedPassage, SearchResult } from './types.js';

export const SEARCH_MODES = ['bm25', 'dense', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface RetrieverConfig {
  mode: SearchMode;
  fusion: FusionConfig;
  /** Passages taken from each first-stage list (SIDE's k). */
  sparseK: number;
  denseK: number;
  denseQueryWords: number;
}

export const DEFAULT_RETRIEVER_CONFIG: RetrieverConfig = {
  mode: 'bm25',
  // Weighted fusion; BM25's weight, unless given, is the query embedder's (defaultSparseWeight).
  fusion: { method: 'weighted', rrfK: 60 },
  sparseK: 100,
  denseK: 100,
  denseQueryWords: DENSE_QUERY_WORDS,
};

/**
 * BM25's weight in weighted fusion for an embedder, each chosen on SciFact *train* claims (never the dev
 * claims the figures report):
 *  - USE-lite 0.8: nDCG@10 0.696 vs 0.688 for BM25 alone, 0.62 at 0.5 (the offline USE encoder is a weaker
 *    retriever than BM25 on scientific and web text, and equal weights let it pull good BM25 hits down);
 *  - all-MiniLM-L6-v2 (the default) 0.6: 0.7343 on the 809 train claims, against 0.7156 at 0.8, 0.7309 at
 *    0.7, 0.7333 at 0.5, 0.7323 at 0.4, BM25 alone 0.6881 and dense alone 0.6860 (docs/RESULTS.md, stop 49).
 */
export function defaultSparseWeight(embedder: ModelInfo | undefined): number {
  return embedder && isUseModel(embedder) ? 0.8 : 0.6;
}

export interface RetrieverSearchOptions {
  /** Documents wanted. */
  k: number;
  mode?: SearchMode;
  /** Stops between stages when it aborts (a request's deadline): the search rejects with its reason. */
  signal?: AbortSignal;
}

export interface RetrieverResult extends SearchResult {
  queries: { sparse: string; dense: string };
  configHash: string;
  config: RetrieverConfig;
  embedder?: string;
}

/** An embedder, or a loader called on the first dense query (a BM25-only caller never pays for the model). */
export type EmbedderSource = Embedder | (() => Promise<Embedder>);

export class Retriever {
  readonly config: RetrieverConfig;
  private loaded: Embedder | undefined;
  private loader: (() => Promise<Embedder>) | undefined;
  private loading: Promise<Embedder> | undefined;

  constructor(
    readonly store: Store,
    embedder: EmbedderSource | undefined,
    config: Partial<RetrieverConfig> = {},
  ) {
    this.config = { ...DEFAULT_RETRIEVER_CONFIG, ...config, fusion: { ...DEFAULT_RETRIEVER_CONFIG.fusion, ...config.fusion } };
    if (typeof embedder === 'function') this.loader = embedder;
    else this.loaded = embedder;
  }

  /** The query embedder, once loaded (undefined until a dense query needed it, or when there is none). */
  get embedder(): Embedder | undefined {
    return this.loaded;
  }

  /** Whether dense and hybrid queries can be served: an embedder is configured and the index has vectors. */
  async supportsDense(): Promise<boolean> {
    return (this.loaded !== undefined || this.loader !== undefined) && (await this.store.vectorDimension()) !== undefined;
  }

  private async requireEmbedder(mode: SearchMode): Promise<Embedder> {
    if (this.loaded) return this.loaded;
    if (!this.loader) throw new SettingsError('retrieval.mode', `"${mode}" needs a query embedder, and none is configured (models.embedder)`);
    this.loading ??= this.loader().then((e) => (this.loaded = e));
    return this.loading;
  }

  /** The fusion of hybrid queries: BM25's weight, when not given, the query embedder's (defaultSparseWeight). */
  fusionFor(embedder: Embedder): FusionConfig {
    const f = this.config.fusion;
    return f.method === 'weighted' && f.sparseWeight === undefined ? { ...f, sparseWeight: defaultSparseWeight(embedder.info) } : f;
  }

  /** The passages of one first-stage list, deep enough to rank `k` documents. */
  async sparse(query: string, depth: number): Promise<RankedPassage[]> {
    const hits = await this.store.searchText(query, depth);
    return hits.map((h, i) => ({ passage: h.passage, score: h.score, rank: i + 1 }));
  }

  async search(input: string | ClaimInContext, opts: RetrieverSearchOptions): Promise<RetrieverResult> {
    const t = performance.now();
    const signal = opts.signal;
    signal?.throwIfAborted();
    const mode = opts.mode ?? this.config.mode;
    const queries = buildQueries(input, this.config.denseQueryWords);
    // Documents have several passages: fetch enough passages to fill k documents.
    const sparseDepth = Math.max(this.config.sparseK, 3 * opts.k);
    const denseDepth = Math.max(this.config.denseK, 3 * opts.k);
    let passages: RankedPassage[];
    let fusion = this.config.fusion;
    if (mode === 'bm25') passages = await this.sparse(queries.sparse, sparseDepth);
    else if (mode === 'dense') passages = await densePassages(this.store, await this.requireEmbedder(mode), queries.dense, denseDepth);
    else {
      const embedder = await this.requireEmbedder(mode);
      const [s, d] = await Promise.all([this.sparse(queries.sparse, sparseDepth), densePassages(this.store, embedder, queries.dense, denseDepth)]);
      fusion = this.fusionFor(embedder);
      passages = fuse(s, d, fusion);
    }
    signal?.throwIfAborted();
    const config = { ...this.config, mode, fusion };
    return {
      query: typeof input === 'string' ? input : input.claim,
      mode,
      queries,
      passages: passages.slice(0, Math.max(opts.k, 10)),
      documents: groupByDocument(passages).slice(0, opts.k),
      snapshot: await this.store.snapshot(),
      tookMs: performance.now() - t,
      config,
      configHash: configHash({ ...config, embedder: mode === 'bm25' ? undefined : this.embedder?.info }),
      embedder: mode === 'bm25' ? undefined : this.embedder?.info.id,
    };
  }
}
