/** Small numeric helpers over row-major float32 tensors returned by onnxruntime. */

export function softmax(logits: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  const exps = Array.from({ length: logits.length }, (_, i) => Math.exp(logits[i] - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

export function l2normalize(v: Float32Array): Float32Array {
  let sq = 0;
  for (const x of v) sq += x * x;
  // A zero vector stays zero rather than becoming NaN.
  const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/**
 * Pools one row of a [batch, seq, hidden] tensor. Mean pooling averages only positions where the attention
 * mask is 1 (sentence-transformers' definition), so padding never changes an embedding.
 */
export function poolRow(
  hidden: Float32Array,
  mask: ArrayLike<bigint>,
  row: number,
  seq: number,
  dim: number,
  pooling: 'mean' | 'cls',
): Float32Array {
  const out = new Float32Array(dim);
  const base = row * seq * dim;
  if (pooling === 'cls') {
    out.set(hidden.subarray(base, base + dim));
    return out;
  }
  const acc = new Float64Array(dim); // float64 sum: long inputs lose no precision
  let count = 0;
  for (let t = 0; t < seq; t++) {
    if (mask[row * seq + t] === 0n) continue;
    count++;
    const off = base + t * dim;
    for (let d = 0; d < dim; d++) acc[d] += hidden[off + d];
  }
  if (count > 0) for (let d = 0; d < dim; d++) out[d] = acc[d] / count;
  return out;
}
