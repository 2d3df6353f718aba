import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildTinyBertGraph } from './tiny-graph.js';
import { tinyTokenizerConfig, tinyTokenizerJson, tinyVocabulary } from './tiny-tokenizer.js';

/**
 * Builds a complete, loadable model folder (the same layout as an optimum / Xenova export) with a tiny
 * random BERT inside. There are no real weights on offline machines, so this is how the ONNX backend is
 * tested end to end. Test-only: it imports the `onnx-proto` devDependency, so it is deliberately not
 * re-exported from ./index.ts.
 */
export interface TinyBertOptions {
  task: 'embedding' | 'classification';
  /** Classification only; defaults to the size of id2label, else 2. */
  numLabels?: number;
  /** Classification only; written to config.json as-is (keys are label indices). */
  id2label?: Record<number, string>;
  hidden?: number;
  layers?: number;
  heads?: number;
  /** Position-embedding table size (= config.max_position_embeddings). */
  maxPositions?: number;
  /** tokenizer_config.model_max_length; defaults to maxPositions. */
  modelMaxLength?: number;
  seed?: number;
  /** Also write onnx/model_quantized.onnx (weight-only int8 via DequantizeLinear). */
  quantized?: boolean;
}

export interface TinyBertResult {
  dir: string;
  vocab: string[];
  config: Record<string, unknown>;
}

export async function buildTinyBertModel(dir: string, options: TinyBertOptions): Promise<TinyBertResult> {
  const hidden = options.hidden ?? 64;
  const layers = options.layers ?? 2;
  const heads = options.heads ?? 2;
  const maxPositions = options.maxPositions ?? 128;
  const seed = options.seed ?? 42;
  const vocab = tinyVocabulary();
  const id2label =
    options.task === 'classification'
      ? (options.id2label ??
        Object.fromEntries(Array.from({ length: options.numLabels ?? 2 }, (_, i) => [i, `LABEL_${i}`])))
      : undefined;
  const numLabels = id2label === undefined ? 0 : (options.numLabels ?? Object.keys(id2label).length);

  const config: Record<string, unknown> = {
    architectures: [options.task === 'embedding' ? 'BertModel' : 'BertForSequenceClassification'],
    model_type: 'bert',
    vocab_size: vocab.length,
    hidden_size: hidden,
    num_hidden_layers: layers,
    num_attention_heads: heads,
    intermediate_size: hidden * 4,
    hidden_act: 'gelu',
    max_position_embeddings: maxPositions,
    type_vocab_size: 2,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
  };
  if (id2label !== undefined) {
    config.id2label = Object.fromEntries(Object.entries(id2label).map(([k, v]) => [String(k), v]));
    config.label2id = Object.fromEntries(Object.entries(id2label).map(([k, v]) => [v, Number(k)]));
  }

  const spec = {
    task: options.task,
    vocabSize: vocab.length,
    hidden,
    layers,
    heads,
    intermediate: hidden * 4,
    maxPositions,
    typeVocabSize: 2,
    numLabels,
    layerNormEps: 1e-12,
    seed,
    quantize: false,
  };

  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  const writes: Array<Promise<void>> = [
    writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson(vocab))),
    writeFile(
      path.join(dir, 'tokenizer_config.json'),
      JSON.stringify(tinyTokenizerConfig(options.modelMaxLength ?? maxPositions), null, 2),
    ),
    writeFile(path.join(dir, 'onnx', 'model.onnx'), buildTinyBertGraph(spec)),
  ];
  if (options.quantized) {
    // Same seed, so the quantized copy approximates exactly the fp32 weights above.
    writes.push(writeFile(path.join(dir, 'onnx', 'model_quantized.onnx'), buildTinyBertGraph({ ...spec, quantize: true })));
  }
  await Promise.all(writes);
  return { dir, vocab, config };
}
