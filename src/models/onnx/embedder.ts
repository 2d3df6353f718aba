import type { Tensor } from '@huggingface/transformers';
import type { Embedder, ModelInfo } from '../types.js';
import { runBatched, type EncodedItem } from './encode.js';
import { ModelLoadError } from './errors.js';
import { loadOnnxModel, type LoadedOnnxModel, type OnnxLoadOptions } from './load.js';
import { l2normalize, poolRow } from './math.js';

export interface OnnxEmbedderOptions extends OnnxLoadOptions {
  /** 'mean' (default; sentence-transformers models) or 'cls' (first token; e.g. BGE, E5-style CLS models). */
  pooling?: 'mean' | 'cls';
  /** The name recorded for the model (default: its folder's name or hub id): the shipped one is named after its upstream. */
  id?: string;
}

/** Token-level outputs, in preference order: transformers/optimum exports, then sentence-transformers exports. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];

/** Sentence embeddings from an encoder-only transformer: pooled token states, L2-normalised. */
export class OnnxEmbedder implements Embedder {
  readonly info: ModelInfo;
  readonly dimension: number;
  readonly pooling: 'mean' | 'cls';
  readonly maxLength: number;

  private constructor(
    private readonly loaded: LoadedOnnxModel,
    private readonly output: string,
    dimension: number,
    pooling: 'mean' | 'cls',
    id?: string,
  ) {
    this.info = id ? { ...loaded.info, id } : loaded.info;
    this.dimension = dimension;
    this.pooling = pooling;
    this.maxLength = loaded.encoder.maxLength;
  }

  /** `spec`: a model folder or a hub id (see docs/MODELS.md). */
  static async load(spec: string, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const loaded = await loadOnnxModel(spec, 'base', options);
    const output = TOKEN_OUTPUTS.find((n) => loaded.outputNames.includes(n));
    const c = loaded.config;
    const dimension = [c.hidden_size, c.dim, c.d_model].find((v): v is number => typeof v === 'number');
    if (output === undefined || dimension === undefined) {
      await loaded.model.dispose();
      throw new ModelLoadError(
        'onnx-invalid',
        output === undefined
          ? `${loaded.where} has no token-level output (outputs: ${loaded.outputNames.join(', ')}; expected ${TOKEN_OUTPUTS.join(' or ')}). ` +
              'Export it with optimum-cli export onnx --task feature-extraction.'
          : `config.json of ${loaded.where} has no hidden_size; cannot tell the embedding dimension.`,
        { path: loaded.where },
      );
    }
    return new OnnxEmbedder(loaded, output, dimension, options.pooling ?? 'mean', options.id);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const items = texts.map((t) => this.loaded.encoder.encode(t));
    return runBatched(items, this.loaded.batchSize, (batch) => this.run(batch));
  }

  private async run(batch: EncodedItem[]): Promise<Float32Array[]> {
    const inputs = this.loaded.encoder.batch(batch);
    const out = (await this.loaded.model(inputs)) as Record<string, Tensor>;
    const hidden = out[this.output];
    const [n, seq, dim] = hidden.dims;
    if (dim !== this.dimension || n !== batch.length) {
      const expected = `[${batch.length}, ${seq}, ${this.dimension}]`;
      throw new Error(`${this.loaded.where}: ${this.output} has shape [${hidden.dims.join(', ')}], expected ${expected}`);
    }
    const data = hidden.data as Float32Array;
    const mask = inputs.attention_mask.data as BigInt64Array;
    return batch.map((_, r) => l2normalize(poolRow(data, mask, r, seq, dim, this.pooling)));
  }

  async dispose(): Promise<void> {
    await this.loaded.model.dispose();
  }
}
