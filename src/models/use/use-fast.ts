/**
 * Fast USE-lite path: the pretrained tfjs weights re-expressed as an ONNX graph (onnx-graph.ts) and run
 * by onnxruntime-node's native CPU kernels (AVX2/AVX-512 GEMMs, fused attention) instead of tfjs-wasm.
 * Vectors match the reference path to cosine >= 0.999999 on the fixture passages (use-embedder.test.ts).
 * The session runs in a worker thread (models/ort-thread): onnxruntime computes on the calling thread, and
 * the server's event loop must stay free while passages are embedded.
 */
import { OrtThreadSession } from '../ort-thread/ort-thread.js';
import { boundModelInput } from '../bounded-input.js';
import type { Embedder } from '../types.js';
import { buildUseOnnx, MAX_TOKENS } from './onnx-graph.js';
import { UseTokenizer } from './tokenizer.js';
import { l2Normalize, Serial } from './util.js';
import { loadUseWeights, useModelId, USE_DIMENSION, weight } from './weights.js';

export interface UseFastOptions {
  /**
   * Texts per onnxruntime call. 16 measured best on the 2-core dev box (8..64 are within ~10%): rows are
   * B*128, enough for full-speed GEMMs, while the [B*128, 1536] activations (12 MB) stay in L3.
   */
  batchSize?: number;
  /** onnxruntime intra-op threads; default: onnxruntime's own (one per physical core). */
  threads?: number;
}

export async function createUseFastEmbedder(opts: UseFastOptions = {}): Promise<Embedder> {
  const batchSize = opts.batchSize ?? 16;
  const weights = loadUseWeights();
  const session = await OrtThreadSession.create({
    model: buildUseOnnx(weights),
    options: {
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      ...(opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
      // No busy-waiting between ops and calls: on the shared 2-core box spinning burned up to 40% more CPU
      // per passage under load, and its throughput gain when idle was within run-to-run noise; idle spinning
      // also steals the cores from whatever else the pipeline runs between embed calls.
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    },
  });
  const tokenizer = new UseTokenizer(weights.vocabulary);
  // A text with no tokens pools to the zero vector in the tfjs graph, so its embedding is tanh(bias);
  // computed here because the ONNX graph's post-pooling FFN rewrite would add a bias for empty rows.
  const empty = l2Normalize(weight(weights, 'hidden_layers/tanh_layer_0/bias').data.map(Math.tanh));
  const serial = new Serial(); // one run at a time: concurrent runs would only fight over the same cores

  async function runBatch(tokens: number[][]): Promise<Float32Array[]> {
    const b = tokens.length;
    const len = Math.max(...tokens.map((t) => t.length));
    const ids = new Int32Array(b * len);
    const lengths = new Int32Array(b);
    const poolw = new Float32Array(b * len);
    tokens.forEach((t, i) => {
      ids.set(t, i * len);
      lengths[i] = t.length;
      poolw.fill(1 / t.length, i * len, i * len + t.length);
    });
    const out = await session.run({
      ids: { type: 'int32', data: ids, dims: [b, len] },
      lengths: { type: 'int32', data: lengths, dims: [b] },
      poolw: { type: 'float32', data: poolw, dims: [b, 1, len] },
    });
    const data = out.embedding!.data as Float32Array;
    return tokens.map((_, i) => l2Normalize(data.slice(i * USE_DIMENSION, (i + 1) * USE_DIMENSION)));
  }

  return {
    info: { id: useModelId(), version: weights.version, backend: 'onnx' },
    dimension: USE_DIMENSION,
    embed: (texts) =>
      serial.run(async () => {
        // Bounded before tokenising: only MAX_TOKENS tokens are kept, and tokenising a 50 MB text is not free.
        const tokens = texts.map((t) => tokenizer.encode(boundModelInput(t)).slice(0, MAX_TOKENS));
        const result: Float32Array[] = tokens.map(() => empty.slice());
        // Longest first, so each batch pads to similar lengths; empty texts keep the precomputed vector.
        const order = tokens.map((_, i) => i).filter((i) => tokens[i].length > 0);
        order.sort((a, b) => tokens[b].length - tokens[a].length || a - b);
        for (let start = 0; start < order.length; start += batchSize) {
          const idx = order.slice(start, start + batchSize);
          const vectors = await runBatch(idx.map((i) => tokens[i]));
          idx.forEach((i, k) => (result[i] = vectors[k]));
        }
        return result;
      }),
    dispose: () => session.release(),
  };
}
