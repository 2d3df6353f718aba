import { uniform } from '../../util/rng.js';
import onnxProto from 'onnx-proto';

/**
 * Writes a BERT-shaped ONNX graph with seeded random weights. Used only to test the ONNX backend on machines
 * that cannot download real weights: the graph has the same inputs, outputs and operators (Gather
 * embeddings, LayerNorm, masked multi-head self-attention, erf-GELU FFN, residuals) as an optimum export of
 * BertModel / BertForSequenceClassification, so tokenizer wiring, masking, batching and truncation are
 * exercised for real. Weights mean nothing; outputs are only useful for equality/shape checks.
 */
const { onnx } = onnxProto;

export interface TinyGraphSpec {
  task: 'embedding' | 'classification';
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
  typeVocabSize: number;
  numLabels: number;
  layerNormEps: number;
  seed: number;
  /** Store MatMul weights as int8 + DequantizeLinear (weight-only q8) instead of float32. */
  quantize: boolean;
}

const makeRng = uniform;

function makeNormal(rng: () => number): (std: number) => number {
  return (std) => {
    // Box-Muller; 1 - u keeps log() away from 0.
    const u = 1 - rng();
    const v = rng();
    return std * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const INT8 = onnx.TensorProto.DataType.INT8;

function bytes(view: ArrayBufferView): Uint8Array {
  // ONNX raw_data is little-endian; so are all platforms Node supports.
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** Attributes ONNX types as float; every other scalar attribute used here is an int. */
const FLOAT_ATTRIBUTES = new Set(['epsilon']);

class GraphBuilder {
  readonly nodes: onnxProto.onnx.INodeProto[] = [];
  readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private counter = 0;
  private readonly normal: (std: number) => number;

  constructor(
    seed: number,
    private readonly quantize: boolean,
  ) {
    this.normal = makeNormal(makeRng(seed));
  }

  fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }

  floatInit(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push({ name, dims, dataType: FLOAT, rawData: bytes(data) });
    return name;
  }

  int64Init(name: string, values: number[]): string {
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    this.initializers.push({ name, dims: [values.length], dataType: INT64, rawData: bytes(data) });
    return name;
  }

  scalarInt64(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: INT64, rawData: bytes(BigInt64Array.of(BigInt(value))) });
    return name;
  }

  scalarFloat(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: FLOAT, rawData: bytes(Float32Array.of(value)) });
    return name;
  }

  random(count: number, std: number): Float32Array {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = this.normal(std);
    return out;
  }

  constant(count: number, value: number): Float32Array {
    return new Float32Array(count).fill(value);
  }

  /** A MatMul weight: float32, or int8 + per-tensor symmetric scale dequantized in-graph when quantizing. */
  weight(name: string, dims: [number, number], std: number): string {
    const data = this.random(dims[0] * dims[1], std);
    if (!this.quantize) return this.floatInit(name, dims, data);
    let maxAbs = 0;
    for (const v of data) maxAbs = Math.max(maxAbs, Math.abs(v));
    const scale = maxAbs / 127 || 1;
    const q = new Int8Array(data.length);
    for (let i = 0; i < data.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(data[i] / scale)));
    this.initializers.push({ name: `${name}_q`, dims, dataType: INT8, rawData: bytes(q) });
    this.scalarFloat(`${name}_scale`, scale);
    this.initializers.push({ name: `${name}_zp`, dims: [], dataType: INT8, rawData: bytes(Int8Array.of(0)) });
    this.node('DequantizeLinear', [`${name}_q`, `${name}_scale`, `${name}_zp`], [name]);
    return name;
  }

  node(
    opType: string,
    inputs: string[],
    outputs: string[],
    attrs: Record<string, number | number[]> = {},
  ): string {
    const attribute = Object.entries(attrs).map(([attrName, v]) => {
      if (Array.isArray(v)) return { name: attrName, type: onnx.AttributeProto.AttributeType.INTS, ints: v };
      if (!FLOAT_ATTRIBUTES.has(attrName)) {
        return { name: attrName, type: onnx.AttributeProto.AttributeType.INT, i: v };
      }
      return { name: attrName, type: onnx.AttributeProto.AttributeType.FLOAT, f: v };
    });
    this.nodes.push({ opType, input: inputs, output: outputs, name: this.fresh(opType), attribute });
    return outputs[0];
  }

  op(opType: string, inputs: string[], attrs: Record<string, number | number[]> = {}): string {
    return this.node(opType, inputs, [this.fresh(opType.toLowerCase())], attrs);
  }

  /** x @ W + b */
  linear(x: string, prefix: string, inDim: number, outDim: number, std: number): string {
    const w = this.weight(`${prefix}.weight`, [inDim, outDim], std);
    const b = this.floatInit(`${prefix}.bias`, [outDim], this.constant(outDim, 0));
    return this.op('Add', [this.op('MatMul', [x, w]), b]);
  }

  layerNorm(x: string, prefix: string, dim: number, eps: number): string {
    const g = this.floatInit(`${prefix}.weight`, [dim], this.constant(dim, 1));
    const b = this.floatInit(`${prefix}.bias`, [dim], this.constant(dim, 0));
    return this.op('LayerNormalization', [x, g, b], { axis: -1, epsilon: eps });
  }
}

function tensorType(dims: Array<number | string>, elemType: number): onnxProto.onnx.ITypeProto {
  return {
    tensorType: {
      elemType,
      shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
    },
  };
}

/** Encoder layer: post-LN BERT block. */
function encoderLayer(g: GraphBuilder, x: string, mask: string, l: number, s: TinyGraphSpec): string {
  const headDim = s.hidden / s.heads;
  const p = `encoder.layer.${l}`;
  const headShape = g.int64Init(`${p}.head_shape`, [0, 0, s.heads, headDim]);
  const mergedShape = g.int64Init(`${p}.merged_shape`, [0, 0, s.hidden]);
  const split = (name: string, perm: number[]): string => {
    const projected = g.linear(x, `${p}.attention.self.${name}`, s.hidden, s.hidden, 0.02);
    return g.op('Transpose', [g.op('Reshape', [projected, headShape])], { perm });
  };
  const q = split('query', [0, 2, 1, 3]); // [B, h, S, d]
  const k = split('key', [0, 2, 3, 1]); // [B, h, d, S]
  const v = split('value', [0, 2, 1, 3]); // [B, h, S, d]
  const scale = g.scalarFloat(`${p}.scale`, 1 / Math.sqrt(headDim));
  const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), scale]), mask]);
  const probs = g.op('Softmax', [scores], { axis: -1 });
  const merged = g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }); // [B, S, h, d]
  const context = g.op('Reshape', [merged, mergedShape]);
  const attnOut = g.linear(context, `${p}.attention.output.dense`, s.hidden, s.hidden, 0.02);
  const h1 = g.layerNorm(g.op('Add', [attnOut, x]), `${p}.attention.output.LayerNorm`, s.hidden, s.layerNormEps);

  // GELU (erf form, as in BERT): 0.5 * x * (1 + erf(x / sqrt(2))). Spelled out because Gelu is opset 20.
  const inter = g.linear(h1, `${p}.intermediate.dense`, s.hidden, s.intermediate, 0.02);
  const erf = g.op('Erf', [g.op('Mul', [inter, g.scalarFloat(`${p}.inv_sqrt2`, Math.SQRT1_2)])]);
  const onePlusErf = g.op('Add', [erf, g.scalarFloat(`${p}.one`, 1)]);
  const gelu = g.op('Mul', [g.op('Mul', [inter, onePlusErf]), g.scalarFloat(`${p}.half`, 0.5)]);
  const out = g.linear(gelu, `${p}.output.dense`, s.intermediate, s.hidden, 0.02);
  return g.layerNorm(g.op('Add', [out, h1]), `${p}.output.LayerNorm`, s.hidden, s.layerNormEps);
}

export function buildTinyBertGraph(s: TinyGraphSpec): Uint8Array {
  if (s.hidden % s.heads !== 0) throw new Error(`hidden (${s.hidden}) must be divisible by heads (${s.heads})`);
  const g = new GraphBuilder(s.seed, s.quantize);

  // Embeddings: word + position + token type, then LayerNorm.
  const table = (name: string, rows: number): string =>
    g.floatInit(`embeddings.${name}.weight`, [rows, s.hidden], g.random(rows * s.hidden, 0.02));
  const wordEmb = table('word_embeddings', s.vocabSize);
  const posEmb = table('position_embeddings', s.maxPositions);
  const typeEmb = table('token_type_embeddings', s.typeVocabSize);
  // position_ids = range(0, seq_len): computed in-graph, as the exported BERT graphs do.
  const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), g.scalarInt64('seq_axis', 1)], { axis: 0 });
  const positions = g.op('Range', [g.scalarInt64('range_start', 0), seqLen, g.scalarInt64('range_step', 1)]);
  const emb = g.op('Add', [
    g.op('Add', [g.op('Gather', [wordEmb, 'input_ids']), g.op('Gather', [posEmb, positions])]),
    g.op('Gather', [typeEmb, 'token_type_ids']),
  ]);
  let x = g.layerNorm(emb, 'embeddings.LayerNorm', s.hidden, s.layerNormEps);

  // Additive attention mask [B, 1, 1, S]: 0 where attended, -10000 on padding (BERT's classic value;
  // exp underflows to exactly 0 in float32, so padded and unpadded runs agree).
  const maskF = g.op('Cast', ['attention_mask'], { to: FLOAT });
  const inverted = g.op('Sub', [g.scalarFloat('mask_one', 1), maskF]);
  const additive = g.op('Mul', [inverted, g.scalarFloat('mask_neg', -10000)]);
  const mask = g.op('Unsqueeze', [additive, g.int64Init('mask_axes', [1, 2])]);

  for (let l = 0; l < s.layers; l++) x = encoderLayer(g, x, mask, l, s);

  const B = 'batch_size';
  const S = 'sequence_length';
  let output: onnxProto.onnx.IValueInfoProto;
  if (s.task === 'embedding') {
    g.node('Identity', [x], ['last_hidden_state']);
    output = { name: 'last_hidden_state', type: tensorType([B, S, s.hidden], FLOAT) };
  } else {
    // BertPooler on the [CLS] position, then the classifier head. The classifier gets a larger init than
    // BERT's 0.02 so random logits are well separated (tests compare label orderings).
    const cls = g.op('Gather', [x, g.scalarInt64('cls_index', 0)], { axis: 1 });
    const pooled = g.op('Tanh', [g.linear(cls, 'pooler.dense', s.hidden, s.hidden, 0.2)]);
    const logits = g.linear(pooled, 'classifier', s.hidden, s.numLabels, 0.25);
    g.node('Identity', [logits], ['logits']);
    output = { name: 'logits', type: tensorType([B, s.numLabels], FLOAT) };
  }

  const inputs = ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({
    name,
    type: tensorType([B, S], INT64),
  }));
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName: 'veracite-tiny-bert',
    graph: { name: 'tiny_bert', node: g.nodes, initializer: g.initializers, input: inputs, output: [output] },
  });
  return onnx.ModelProto.encode(model).finish();
}
