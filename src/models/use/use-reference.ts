/**
 * Reference USE-lite path: @energetic-ai/embeddings exactly as shipped (tfjs-converter graph on the
 * tfjs-wasm SIMD backend; tfjs disables wasm threads under Node). ~10 passages/s; it exists to define the
 * expected vectors, which the fast path and the committed fixture are checked against.
 */
import { boundModelInput } from '../bounded-input.js';
import { createRequire } from 'node:module';
import type { Embedder } from '../types.js';
import { l2Normalize, Serial } from './util.js';
import { USE_DIMENSION, USE_PACKAGE, useModelId, useModelVersion } from './weights.js';

interface EnergeticModel {
  tokenizer: { encode(text: string): number[] };
  embed(input: string[]): Promise<number[][]>;
  model: { dispose(): void };
}

export interface UseReferenceOptions {
  batchSize?: number;
}

export async function createUseReferenceEmbedder(opts: UseReferenceOptions = {}): Promise<Embedder> {
  const batchSize = opts.batchSize ?? 16;
  // Loaded lazily through require: importing @energetic-ai/core starts the ~1.7 MB tfjs bundle and its
  // wasm backend, which the fast path never needs.
  const require = createRequire(import.meta.url);
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<EnergeticModel> };
  const { modelSource } = require(USE_PACKAGE) as { modelSource: unknown };
  const model = await initModel(modelSource);
  const serial = new Serial();
  const sentinel = 'a';

  async function embedBatch(raw: string[]): Promise<Float32Array[]> {
    const texts = raw.map((t) => boundModelInput(t));
    // The package builds a sparse [row, position] input whose row count is (last non-empty row + 1), so
    // trailing texts without tokens would silently vanish. A non-empty sentinel keeps every row; rows
    // with no tokens then get what the graph computes for them (mean of nothing = 0, then tanh(bias)).
    const last = texts.at(-1);
    const padded = last !== undefined && model.tokenizer.encode(last).length > 0 ? texts : [...texts, sentinel];
    const out = await model.embed(padded);
    return texts.map((_, i) => l2Normalize(Float32Array.from(out[i])));
  }

  return {
    info: { id: useModelId(), version: useModelVersion(), backend: 'tfjs-wasm' },
    dimension: USE_DIMENSION,
    embed: (texts) =>
      serial.run(async () => {
        const result: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += batchSize) result.push(...(await embedBatch(texts.slice(i, i + batchSize))));
        return result;
      }),
    dispose: async () => model.model.dispose(),
  };
}
