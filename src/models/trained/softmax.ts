/**
 * Inference of the trained heads' classifier: multinomial logistic regression, optionally with one ReLU
 * hidden layer, over standardised features. Training (src/learn/heads/softmax-regression.ts) builds the
 * same SoftmaxModel and reuses this forward pass, so training and inference cannot drift apart.
 */

export interface SoftmaxModel {
  inputDim: number;
  classes: number;
  /** 0 = linear model. */
  hidden: number;
  /** Feature standardisation, applied before the first layer. */
  mean: Float32Array;
  std: Float32Array;
  /** hidden x inputDim (row-major) and hidden; empty when linear. */
  w1: Float32Array;
  b1: Float32Array;
  /** classes x (hidden || inputDim) and classes. */
  w2: Float32Array;
  b2: Float32Array;
}

/** Bitmask of one class: targets are label SETS (see the trainer). */
export const label = (k: number): number => 1 << k;

export function standardise(x: Float32Array, rows: number, dim: number, mean: Float32Array, std: Float32Array): Float32Array {
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    for (let j = 0; j < dim; j++) out[o + j] = (x[o + j] - mean[j]) / std[j];
  }
  return out;
}

/** Forward pass for one standardised row: fills `h` (hidden activations) and `p` (probabilities). */
export function forwardRow(m: SoftmaxModel, xs: Float32Array, o: number, h: Float32Array, p: Float64Array): void {
  const d = m.inputDim;
  let input: Float32Array = xs;
  let io = o;
  let width = d;
  if (m.hidden > 0) {
    for (let k = 0; k < m.hidden; k++) {
      let s = m.b1[k];
      const wo = k * d;
      for (let j = 0; j < d; j++) s += m.w1[wo + j] * xs[o + j];
      h[k] = s > 0 ? s : 0;
    }
    input = h;
    io = 0;
    width = m.hidden;
  }
  let max = -Infinity;
  for (let c = 0; c < m.classes; c++) {
    let s = m.b2[c];
    const wo = c * width;
    for (let j = 0; j < width; j++) s += m.w2[wo + j] * input[io + j];
    p[c] = s;
    if (s > max) max = s;
  }
  let z = 0;
  for (let c = 0; c < m.classes; c++) z += p[c] = Math.exp(p[c] - max);
  for (let c = 0; c < m.classes; c++) p[c] /= z;
}

/** Class probabilities, rows x classes (row-major), for raw (unstandardised) features. */
export function predictProba(m: SoftmaxModel, x: Float32Array, rows: number): Float32Array {
  if (x.length !== rows * m.inputDim) throw new Error(`expected ${rows} x ${m.inputDim} features, got ${x.length} values`);
  const xs = standardise(x, rows, m.inputDim, m.mean, m.std);
  const out = new Float32Array(rows * m.classes);
  const h = new Float32Array(Math.max(m.hidden, 1));
  const p = new Float64Array(m.classes);
  for (let r = 0; r < rows; r++) {
    forwardRow(m, xs, r * m.inputDim, h, p);
    for (let c = 0; c < m.classes; c++) out[r * m.classes + c] = p[c];
  }
  return out;
}
