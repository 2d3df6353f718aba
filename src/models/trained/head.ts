/**
 * Shared inference path of the trained heads: embed each distinct text of a call once, build the pair
 * features, run the classifier. Both public models are thin wrappers around this.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { boundModelInput, MODEL_INPUT_MAX_CHARS } from '../bounded-input.js';
import type { Embedder, ModelInfo } from '../types.js';
import { buildFeatureMatrix, type FeaturePair } from './features.js';
import { predictProba } from './softmax.js';
import { readWeights, TrainedModelError, type HeadKind, type HeadWeights } from './weights-io.js';

/**
 * Pairs per feature matrix, with a turn of the event loop between two: bounds memory (~8 KB of features per
 * pair) and the time the calling thread is held. Building a pair's features (alignment, WordNet, word
 * vectors) costs about a millisecond; at 512 pairs a call held a server's event loop for seconds during
 * an audit (issue 35: health p99 1.4 s); at 8, a few tens of ms. The probabilities do not depend on it.
 */
const CHUNK = 8;

export interface LoadHeadOptions {
  /** Accept an embedder whose id differs from the one the head was trained on (dimension must still match). */
  allowEmbedderMismatch?: boolean;
}

export class TrainedHead {
  readonly info: ModelInfo;

  constructor(
    readonly kind: HeadKind,
    readonly weights: HeadWeights,
    readonly embedder: Embedder,
    weightsSha256: string,
  ) {
    const name = kind === 'nli' ? 'veracite-nli-use' : 'veracite-evidence-use';
    this.info = { id: `${name}@${weightsSha256.slice(0, 12)}`, version: `sha256:${weightsSha256.slice(0, 16)}`, backend: 'trained' };
  }

  static load(kind: HeadKind, embedder: Embedder, path: string, opts: LoadHeadOptions = {}): TrainedHead {
    const { weights, sha256, path: abs } = readWeights(path, kind);
    const want = weights.embedder;
    if (embedder.dimension !== want.dimension) {
      throw new TrainedModelError('embedder-mismatch', `weights at ${abs} need a ${want.dimension}-d embedder (${want.id}); got ${embedder.dimension}-d ${embedder.info.id}`, { path: abs });
    }
    if (!opts.allowEmbedderMismatch && embedder.info.id !== want.id) {
      throw new TrainedModelError('embedder-mismatch', `weights at ${abs} were trained on embedder ${want.id}, got ${embedder.info.id} (pass allowEmbedderMismatch to override)`, { path: abs });
    }
    return new TrainedHead(kind, weights, embedder, sha256);
  }

  /** Class probabilities per pair, in `weights.labels` order. */
  async probabilities(input: readonly FeaturePair[]): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    // Embeddings and lexical features of bounded texts: one huge sentence must not cost seconds and GBs.
    const pairs = input.map((p) => (p.premise.length > MODEL_INPUT_MAX_CHARS || p.hypothesis.length > MODEL_INPUT_MAX_CHARS ? { ...p, premise: boundModelInput(p.premise), hypothesis: boundModelInput(p.hypothesis) } : p));
    // One embed call for every distinct text of the whole call (claims repeat across many sentences).
    const distinct = [...new Set(pairs.flatMap((p) => [p.premise, p.hypothesis]))];
    const vecs = await this.embedder.embed(distinct);
    const byText = new Map(distinct.map((t, i) => [t, vecs[i]]));
    const lookup = async (texts: string[]) => texts.map((t) => byText.get(t)!);
    const { model, idf, embedder } = this.weights;
    const out: Float32Array[] = [];
    for (let s = 0; s < pairs.length; s += CHUNK) {
      if (s > 0) await nextTurn();
      const chunk = pairs.slice(s, s + CHUNK);
      const x = await buildFeatureMatrix(chunk, lookup, embedder.dimension, idf);
      const p = predictProba(model, x, chunk.length);
      for (let r = 0; r < chunk.length; r++) out.push(p.slice(r * model.classes, (r + 1) * model.classes));
    }
    return out;
  }
}
