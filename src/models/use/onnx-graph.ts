/**
 * Re-expresses the USE-lite tfjs graph (model.json) as an ONNX graph over the SAME weight tensors, for
 * onnxruntime's native CPU kernels. The tfjs graph is not a DAN but a 2-layer "KonaTransformer":
 *
 *   ids (<=128 per text; ClipToMaxLength)  -> x0 = emb + (emb + timing)   [256]   (the graph really adds emb twice)
 *   layer 0: LN -> 4-head attention (qkv 256->3x256) -> out 256->512, + dense(x0) 256->512 residual
 *            LN -> FFN 512->1536 relu ->512, + residual
 *   layer 1: LN -> 4-head attention (qkv 512->3x512) -> out 512->512, + residual
 *            LN -> FFN 512->1536 relu ->512, + residual
 *   masked mean over tokens -> tanh(W 512x512 + b) -> l2 normalise (done by the caller)
 *
 * Padding differs from tfjs (which works on sparse indices) but cannot change valid positions: padded keys
 * get a -1e4 bias (softmax weight exactly 0), and everything else is per position.
 * One rewrite for speed: the last FFN's second matmul is linear, so it is applied after the mean pooling
 * (mean(relu(.) W2 + b2) = mean(relu(.)) W2 + b2), saving ~17% of the FLOPs; the caller never pools an
 * empty row (it would wrongly add b2 there), see use-fast.ts.
 */
import { DT_FLOAT, DT_INT32, DT_INT64, encodeModel, type OnnxNode, type OnnxTensor } from './onnx-proto-writer.js';
import { weight, type UseWeights } from './weights.js';

export const MAX_TOKENS = 128;
const HEADS = 4;
const LN_EPSILON = 1e-6;

/** sin/cos position table for positions 0..127, as tfjs computes it (float32 product, then sin/cos). */
function timingTable(inv: Float32Array): Float32Array {
  const half = inv.length;
  const out = new Float32Array(MAX_TOKENS * 2 * half);
  for (let p = 0; p < MAX_TOKENS; p++) {
    for (let k = 0; k < half; k++) {
      const a = Math.fround(p * inv[k]);
      out[p * 2 * half + k] = Math.sin(a);
      out[p * 2 * half + half + k] = Math.cos(a);
    }
  }
  return out;
}

export function buildUseOnnx(w: UseWeights): Uint8Array {
  const nodes: OnnxNode[] = [];
  const inits: OnnxTensor[] = [];
  const init = (name: string, dims: number[], data: Float32Array): string => {
    inits.push({ name, dims, dataType: DT_FLOAT, data });
    return name;
  };
  const initI64 = (name: string, values: number[]): string => {
    if (inits.some((t) => t.name === name)) return name; // shape constants are shared
    inits.push({ name, dims: [values.length], dataType: DT_INT64, data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  };
  const fromGraph = (name: string, suffix: string, dims?: number[]): string => {
    const t = weight(w, suffix);
    return init(name, dims ?? t.shape, t.data);
  };
  const op = (o: string, inputs: string[], out: string, attrs?: OnnxNode['attrs'], domain?: string): string => {
    nodes.push({ op: o, inputs, outputs: [out], attrs, domain });
    return out;
  };
  const linear = (x: string, prefix: string, kernel: string, bias: string, dims: number[]): string =>
    op('Add', [op('MatMul', [x, fromGraph(`${prefix}.w`, kernel, dims)], `${prefix}.mm`), fromGraph(`${prefix}.b`, bias)], prefix);
  const layerNorm = (x: string, prefix: string, path: string): string =>
    op('LayerNormalization', [x, fromGraph(`${prefix}.g`, `${path}layer_norm_scale/ConcatPartitions/concat`), fromGraph(`${prefix}.b`, `${path}layer_norm_bias/ConcatPartitions/concat`)], prefix, { axis: -1, epsilon: { float: LN_EPSILON } });

  // Linear layers work on 2-D [B*L, D] rows so onnxruntime fuses MatMul + bias (+ Relu) into one Gemm;
  // only attention and pooling need the [B, L, D] view (reshapes are free).
  const shape = op('Shape', ['ids'], 'ids_shape');
  const len = op('Slice', [shape, initI64('one', [1]), initI64('two', [2])], 'len');
  const as3d = (x: string, width: number): string =>
    op('Reshape', [x, op('Concat', [shape, initI64(`w${width}`, [width])], `shape3d.${x}`, { axis: 0 })], `${x}.3d`);
  const as2d = (x: string, width: number): string => op('Reshape', [x, initI64(`rows${width}`, [-1, width])], `${x}.2d`);

  // Embedding + timing signal, sliced to the batch's padded length L.
  const emb = op('Gather', [fromGraph('emb', 'module/Embeddings_en'), 'ids'], 'emb_ids', { axis: 0 });
  const timing = init('timing', [MAX_TOKENS, 256], timingTable(weight(w, 'AddTimingSignal/TimingSignal/ExpandDims_1').data));
  const tm = op('Slice', [timing, initI64('zero', [0]), len, initI64('axis0', [0])], 'timing_l');
  const x0 = as2d(op('Add', [emb, op('Add', [emb, tm], 'emb_timing')], 'x0'), 256);

  const hidden = (layer: number, input: string, width: number, residual: string): string => {
    const enc = `Encode/Layer_${layer}/TransformerLayer/`;
    const stack = `Encode/TransformerStack/Layer_${layer}/TransformerLayer/`;
    const ln = layerNorm(input, `l${layer}.ln`, `${enc}layer_prepostprocess/layer_norm/`);
    const qkv = weight(w, `${enc}MultiheadAttention/qkv_transform_single/kernel/part_0`);
    const scale = weight(w, `${stack}MultiheadAttention/mul/y`).data[0];
    const att = op('Attention', [as3d(ln, width), init(`l${layer}.qkv.w`, [width, 3 * width], qkv.data), fromGraph(`l${layer}.qkv.b`, `${enc}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`), 'lengths'], `l${layer}.att`, { num_heads: HEADS, scale: { float: scale } }, 'com.microsoft');
    const out = linear(as2d(att, width), `l${layer}.out`, `${enc}MultiheadAttention/output_transform_single/kernel/part_0`, `${enc}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [width, 512]);
    return op('Add', [out, residual], `l${layer}.h`);
  };
  const ffnHidden = (layer: number, input: string): string => {
    const enc = `Encode/Layer_${layer}/TransformerLayer/FFN/`;
    const ln = layerNorm(input, `l${layer}.ffn.ln`, `${enc}layer_prepostprocess/layer_norm/`);
    const c1 = linear(ln, `l${layer}.ffn.c1`, `TransformerStack/Layer_${layer}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`, `${enc}conv1/bias/ConcatPartitions/concat`, [512, 1536]);
    return op('Relu', [c1], `l${layer}.ffn.relu`);
  };
  const conv2 = (layer: number, x: string): string =>
    linear(x, `l${layer}.ffn.c2`, `TransformerStack/Layer_${layer}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`, `Encode/Layer_${layer}/TransformerLayer/FFN/conv2/bias/ConcatPartitions/concat`, [1536, 512]);

  // Layer 0: its residual is projected 256 -> 512 ("AdjustResidualInput").
  const r0 = linear(x0, 'l0.res', 'Encode/Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat', 'Encode/Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat', [256, 512]);
  const h1 = hidden(0, x0, 256, r0);
  const h2 = op('Add', [conv2(0, ffnHidden(0, h1)), h1], 'l0.ffn.h');
  const h3 = hidden(1, h2, 512, h2);
  // Masked mean: poolw is [B,1,L] with 1/n on the n valid positions.
  const poolFfn = as2d(op('MatMul', ['poolw', as3d(ffnHidden(1, h3), 1536)], 'pool.ffn'), 1536);
  const pooled = op('Add', [as2d(op('MatMul', ['poolw', as3d(h3, 512)], 'pool.h3'), 512), conv2(1, poolFfn)], 'pooled');
  op('Tanh', [linear(pooled, 'tanh', 'hidden_layers/tanh_layer_0/weights', 'hidden_layers/tanh_layer_0/bias', [512, 512])], 'embedding');

  return encodeModel({
    nodes,
    initializers: inits,
    inputs: [
      { name: 'ids', elemType: DT_INT32, shape: ['B', 'L'] },
      { name: 'lengths', elemType: DT_INT32, shape: ['B'] },
      { name: 'poolw', elemType: DT_FLOAT, shape: ['B', 1, 'L'] },
    ],
    outputs: [{ name: 'embedding', elemType: DT_FLOAT, shape: ['B', 512] }],
    opsets: { '': 17, 'com.microsoft': 1 },
  });
}
