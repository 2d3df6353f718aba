/**
 * The verification engine of an audit: a PairScorer over (claim query, source sentence/passage).
 *   'trained' (default): the project's evidence head on USE embeddings, with a memoising embedder (an
 *                        audit embeds the same page sentences for many claims); 'trained:<file>' reads
 *                        other weights of the same format;
 *   'lexical':           content-word overlap, no model (fast tests, machines without weights);
 *   anything else:       an ONNX cross-encoder folder / hub id, through the model registry.
 */
import { loadEmbedder, loadPairScorer } from '../models/registry.js';
import type { Embedder, PairScorer } from '../models/types.js';
import type { OnnxLoadOptions } from '../models/onnx/load.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { LexicalPairScorer } from './lexical.js';
import { MemoEmbedder } from './memo-embedder.js';

export interface LoadedScorer {
  scorer: PairScorer;
  /** The embedder under the trained head (memoised), when there is one. */
  embedder?: MemoEmbedder;
  close(): Promise<void>;
}

export interface LoadScorerOptions {
  onnx?: OnnxLoadOptions;
  /** Directory of an on-disk embedding cache shared across runs (evaluations). */
  embeddingCacheDir?: string;
  /** The USE instance to reuse (the retriever's), if already loaded. */
  embedder?: Embedder;
}

export async function loadAuditScorer(spec: string, opts: LoadScorerOptions = {}): Promise<LoadedScorer> {
  if (spec === 'lexical') return { scorer: new LexicalPairScorer(), close: async () => {} };
  const weights = /^trained:(.+)$/.exec(spec)?.[1];
  if (spec !== 'trained' && !weights) {
    const scorer = await loadPairScorer(spec, undefined, opts.onnx);
    return { scorer, close: async () => scorer.dispose?.() };
  }
  const use = opts.embedder?.info.id.startsWith('use-') ? opts.embedder : await loadEmbedder('use');
  const persist = opts.embeddingCacheDir ? await EmbeddingCache.open(opts.embeddingCacheDir, use) : undefined;
  const embedder = new MemoEmbedder(use, { capacity: 200_000, persist });
  const scorer = weights ? await (await import('../models/trained/index.js')).loadTrainedEvidenceScorer(embedder, weights) : await loadPairScorer('trained', embedder);
  return {
    scorer,
    embedder,
    close: async () => {
      await embedder.dispose();
      persist?.close();
    },
  };
}
