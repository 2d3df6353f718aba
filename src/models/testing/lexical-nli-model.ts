/**
 * Tiny NLI models of known behaviour, for testing what calibration accepts (learn/verdict/sanity-gates.ts):
 * a loadable model folder (config.json, a BERT WordPiece tokenizer, onnx/model.onnx) whose graph sums a
 * per-token, per-segment weight table:
 *
 *   logits[k] = bias[k] + sum over tokens t (attention mask 1) of W[id(t) + vocab * segment(t)][k]
 *
 * The logit columns are in the order entailment, neutral, contradiction; config.json's id2label says which
 * is which, so the same graph is a "label-swapped" model under a swapped id2label. `lexicalNliWeights` fits
 * W by counting (naive Bayes) on labelled pairs the test gives it: a model that reads those pairs well,
 * standing in for a good NLI model where no real weights can be downloaded. Test-only (onnx-proto).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { SPECIAL_TOKENS, tinyTokenizerConfig, tinyTokenizerJson } from '../onnx/tiny-tokenizer.js';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

export type NliColumn = 'entailment' | 'neutral' | 'contradiction';
export const COLUMNS: readonly NliColumn[] = ['entailment', 'neutral', 'contradiction'];

/** Per-word logit weights for the premise (segment 0) and the hypothesis (segment 1). */
export interface LexicalWeights {
  premise: Map<string, [number, number, number]>;
  hypothesis: Map<string, [number, number, number]>;
}

export interface LexicalNliOptions {
  /** 'weights': the table given; 'constant': every pair reads `bias` alone. */
  kind: 'weights' | 'constant';
  weights?: LexicalWeights;
  /** Words of the vocabulary (besides the ones in `weights`); others read as [UNK]. */
  words?: readonly string[];
  bias?: [number, number, number];
  /** Which logit column config.json names what (default: the true order, 0 entailment, 1 neutral, 2 contradiction). */
  id2label?: Record<number, string>;
}

/** The words of a text as the BERT pre-tokenizer splits them (lower case; punctuation apart). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Naive-Bayes log-ratios of each hypothesis (and premise) word per label, from labelled pairs. */
export function lexicalNliWeights(pairs: readonly { premise: string; hypothesis: string; label: string }[], opts: { scale?: number; premise?: boolean } = {}): LexicalWeights {
  const scale = opts.scale ?? 2;
  const count = (side: 'premise' | 'hypothesis') => {
    const c = new Map<string, [number, number, number]>();
    for (const p of pairs) {
      const k = COLUMNS.indexOf(p.label as NliColumn);
      if (k < 0) continue;
      for (const w of new Set(wordsOf(p[side]))) {
        const row = c.get(w) ?? [0, 0, 0];
        row[k]++;
        c.set(w, row);
      }
    }
    const out = new Map<string, [number, number, number]>();
    for (const [w, row] of c) {
      const total = row[0] + row[1] + row[2];
      out.set(w, row.map((v) => scale * Math.log((v + 0.5) / (total + 1.5) / (1 / 3))) as [number, number, number]);
    }
    return out;
  };
  return { premise: opts.premise ? count('premise') : new Map(), hypothesis: count('hypothesis') };
}

export async function buildLexicalNliModel(dir: string, o: LexicalNliOptions): Promise<{ dir: string; vocab: string[] }> {
  const words = new Set<string>(o.words ?? []);
  for (const m of [o.weights?.premise, o.weights?.hypothesis]) for (const w of m?.keys() ?? []) words.add(w);
  const vocab = [...SPECIAL_TOKENS, ...[...words].filter((w) => !(SPECIAL_TOKENS as readonly string[]).includes(w)).sort()];
  const V = vocab.length;
  const table = new Float32Array(2 * V * 3);
  if (o.kind === 'weights') {
    const index = new Map(vocab.map((w, i) => [w, i]));
    (['premise', 'hypothesis'] as const).forEach((side, segment) => {
      for (const [w, row] of o.weights?.[side] ?? []) {
        const i = index.get(w)!;
        for (let k = 0; k < 3; k++) table[(segment * V + i) * 3 + k] = row[k]!;
      }
    });
  }
  const bias = Float32Array.from(o.bias ?? [0, 0, 0]);
  const f32 = (name: string, dims: number[], data: Float32Array) => ({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
  const i64 = (name: string, dims: number[], values: number[]) => {
    const data = BigInt64Array.from(values.map(BigInt));
    return { name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) };
  };
  const node = (opType: string, input: string[], output: string[], attribute: onnxProto.onnx.IAttributeProto[] = []) => ({ opType, input, output, name: output[0], attribute });
  const nodes = [
    node('Mul', ['token_type_ids', 'vocab_size'], ['offset']),
    node('Add', ['input_ids', 'offset'], ['row']),
    node('Gather', ['table', 'row'], ['per_token'], [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }]),
    node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]),
    node('Unsqueeze', ['mask_f', 'last_axis'], ['mask_3d']),
    node('Mul', ['per_token', 'mask_3d'], ['masked']),
    node('ReduceSum', ['masked', 'seq_axis'], ['summed'], [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }]),
    node('Add', ['summed', 'bias'], ['logits']),
  ];
  const tensor = (dims: (number | string)[], elemType: number) => ({ tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName: 'veracite-lexical-nli',
    graph: {
      name: 'lexical_nli',
      node: nodes,
      initializer: [f32('table', [2 * V, 3], table), f32('bias', [3], bias), i64('vocab_size', [], [V]), i64('last_axis', [1], [2]), i64('seq_axis', [1], [1])],
      input: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({ name, type: tensor(['batch_size', 'sequence_length'], INT64) })),
      output: [{ name: 'logits', type: tensor(['batch_size', 3], FLOAT) }],
    },
  });
  const id2label = o.id2label ?? { 0: 'entailment', 1: 'neutral', 2: 'contradiction' };
  const config = {
    architectures: ['BertForSequenceClassification'],
    model_type: 'bert',
    vocab_size: V,
    hidden_size: 3,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    id2label: Object.fromEntries(Object.entries(id2label).map(([k, v]) => [String(k), v])),
    label2id: Object.fromEntries(Object.entries(id2label).map(([k, v]) => [v, Number(k)])),
  };
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await Promise.all([
    writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson(vocab))),
    writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify(tinyTokenizerConfig(512), null, 2)),
    writeFile(path.join(dir, 'onnx', 'model.onnx'), onnx.ModelProto.encode(model).finish()),
  ]);
  return { dir, vocab };
}

const FROM_SCIFACT: Record<string, NliColumn> = { SUPPORT: 'entailment', CONTRADICT: 'contradiction' };

/**
 * Labelled pairs of a calibration samples folder's first items (data/samples/calibration layout): the NLI
 * sample's pairs, and each SciFact claim as a hypothesis with its label (SUPPORT -> entailment, CONTRADICT
 * -> contradiction, no evidence -> neutral). A lexical model fitted on them reads those samples well: the
 * "good model" of calibration tests (its figures are in-sample, by construction).
 */
export async function samplePairs(samples: string, n: { snli: number; train: number; dev: number }): Promise<{ premise: string; hypothesis: string; label: string }[]> {
  const lines = async (file: string, k: number) => (await readFile(path.join(samples, file), 'utf8')).split('\n').filter(Boolean).slice(0, k).map((l) => JSON.parse(l) as Record<string, unknown>);
  const out = (await lines('nli/snli_dev.jsonl', n.snli)) as { premise: string; hypothesis: string; label: string }[];
  for (const [file, k] of [['scifact/claims_train.jsonl', n.train], ['scifact/claims_dev.jsonl', n.dev]] as const) {
    for (const c of (await lines(file, k)) as { claim: string; evidence: Record<string, { label: string }[]> }[]) {
      const label = Object.values(c.evidence)[0]?.[0]?.label;
      out.push({ premise: '', hypothesis: c.claim, label: FROM_SCIFACT[label ?? ''] ?? 'neutral' });
    }
  }
  return out;
}
