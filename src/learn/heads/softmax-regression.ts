/**
 * Multinomial logistic regression (optionally with one ReLU hidden layer) in plain TypeScript over
 * Float32Arrays. Small on purpose: the heads sit on frozen embeddings, so a few thousand parameters per
 * class are enough, and a dependency-free trainer keeps `veracite train` reproducible on any machine.
 *
 * The binary case is the 2-class model (softmax over two logits is logistic regression on their
 * difference), so one code path serves the NLI head and the evidence scorer.
 *
 * Targets are label SETS (bitmasks): a 3-way example has one bit, while RTE's "not_entailment" is
 * {neutral, contradiction} and its loss is -log(p_neutral + p_contradiction), so 2-way data can train a
 * 3-way head without inventing a neutral/contradiction split.
 */
import { Rng } from '../../util/rng.js';
import { forwardRow, label, predictProba, standardise, type SoftmaxModel } from '../../models/trained/softmax.js';

export { label, predictProba, type SoftmaxModel };

export interface Dataset {
  /** rows x dim, row-major. */
  x: Float32Array;
  /** One bitmask of allowed classes per row (bit k = class k). */
  y: Uint8Array;
  rows: number;
  dim: number;
  /** Optional per-row weight (source / class balancing); 1 when absent. */
  weight?: Float32Array;
}

export interface TrainOptions {
  seed: number;
  hidden?: number;
  epochs?: number;
  batchSize?: number;
  learningRate?: number;
  l2?: number;
  /** Stop after this many epochs without a better validation loss; the best epoch's weights are kept. */
  patience?: number;
  validation?: Dataset;
  log?: (line: string) => void;
}

export interface TrainResult {
  model: SoftmaxModel;
  bestEpoch: number;
  epochsRun: number;
  history: { epoch: number; trainLoss: number; valLoss?: number; valAccuracy?: number }[];
}

/** Mean / std per feature; constant features get std 1 so they standardise to 0 instead of NaN. */
export function standardisation(data: Dataset): { mean: Float32Array; std: Float32Array } {
  const { x, rows, dim } = data;
  const sum = new Float64Array(dim);
  const sq = new Float64Array(dim);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    for (let j = 0; j < dim; j++) {
      const v = x[o + j];
      sum[j] += v;
      sq[j] += v * v;
    }
  }
  const mean = new Float32Array(dim);
  const std = new Float32Array(dim);
  for (let j = 0; j < dim; j++) {
    const m = sum[j] / Math.max(rows, 1);
    const s = Math.sqrt(Math.max(sq[j] / Math.max(rows, 1) - m * m, 0));
    mean[j] = m;
    std[j] = s > 1e-6 ? s : 1;
  }
  return { mean, std };
}

/** -log P(allowed set), clamped so one confident mistake cannot dominate the mean. */
function setLoss(p: Float64Array, mask: number, classes: number): number {
  let s = 0;
  for (let c = 0; c < classes; c++) if (mask & (1 << c)) s += p[c];
  return -Math.log(Math.max(s, 1e-12));
}

/** Mean loss and accuracy (argmax in the allowed set) of a standardised dataset. */
function evaluateStandardised(m: SoftmaxModel, xs: Float32Array, y: Uint8Array, rows: number): { loss: number; accuracy: number } {
  const h = new Float32Array(Math.max(m.hidden, 1));
  const p = new Float64Array(m.classes);
  let loss = 0;
  let correct = 0;
  for (let r = 0; r < rows; r++) {
    forwardRow(m, xs, r * m.inputDim, h, p);
    loss += setLoss(p, y[r], m.classes);
    let best = 0;
    for (let c = 1; c < m.classes; c++) if (p[c] > p[best]) best = c;
    if (y[r] & (1 << best)) correct++;
  }
  return { loss: loss / Math.max(rows, 1), accuracy: correct / Math.max(rows, 1) };
}

class Adam {
  private m: Float32Array;
  private v: Float32Array;
  private t = 0;
  constructor(
    readonly params: Float32Array,
    private readonly lr: number,
  ) {
    this.m = new Float32Array(params.length);
    this.v = new Float32Array(params.length);
  }
  step(grad: Float32Array): void {
    this.t++;
    const b1 = 0.9;
    const b2 = 0.999;
    const c1 = 1 - b1 ** this.t;
    const c2 = 1 - b2 ** this.t;
    for (let i = 0; i < grad.length; i++) {
      const g = grad[i];
      this.m[i] = b1 * this.m[i] + (1 - b1) * g;
      this.v[i] = b2 * this.v[i] + (1 - b2) * g * g;
      this.params[i] -= (this.lr * (this.m[i] / c1)) / (Math.sqrt(this.v[i] / c2) + 1e-8);
    }
  }
}

function cloneModel(m: SoftmaxModel): SoftmaxModel {
  return { ...m, mean: m.mean.slice(), std: m.std.slice(), w1: m.w1.slice(), b1: m.b1.slice(), w2: m.w2.slice(), b2: m.b2.slice() };
}

/** Mini-batch Adam on the set-valued cross-entropy + L2 (weights only), with early stopping. */
export function trainSoftmax(train: Dataset, classes: number, opts: TrainOptions): TrainResult {
  const hidden = opts.hidden ?? 0;
  const epochs = opts.epochs ?? 60;
  const batchSize = opts.batchSize ?? 64;
  const l2 = opts.l2 ?? 1e-4;
  const patience = opts.patience ?? 5;
  const rng = new Rng(opts.seed);
  const d = train.dim;
  const { mean, std } = standardisation(train);
  const xs = standardise(train.x, train.rows, d, mean, std);
  const val = opts.validation;
  const vxs = val ? standardise(val.x, val.rows, d, mean, std) : undefined;

  const width = hidden || d;
  // He init for the ReLU layer; a small init for the output layer keeps early softmax outputs near uniform.
  const w1 = new Float32Array(hidden * d).map(() => rng.normal() * Math.sqrt(2 / d));
  const w2 = new Float32Array(classes * width).map(() => rng.normal() * (hidden ? Math.sqrt(1 / width) : 0.01));
  const m: SoftmaxModel = { inputDim: d, classes, hidden, mean, std, w1, b1: new Float32Array(hidden), w2, b2: new Float32Array(classes) };
  // 3e-4: with ~2k standardised inputs, larger steps overfit within the first epoch (validation loss rises).
  const lr = opts.learningRate ?? 3e-4;
  const opt = { w1: new Adam(m.w1, lr), b1: new Adam(m.b1, lr), w2: new Adam(m.w2, lr), b2: new Adam(m.b2, lr) };
  const g = { w1: new Float32Array(m.w1.length), b1: new Float32Array(hidden), w2: new Float32Array(m.w2.length), b2: new Float32Array(classes) };

  const order = Array.from({ length: train.rows }, (_, i) => i);
  const h = new Float32Array(Math.max(hidden, 1));
  const p = new Float64Array(classes);
  const dz = new Float64Array(classes);
  const dh = new Float64Array(Math.max(hidden, 1));
  const history: TrainResult['history'] = [];
  let best = cloneModel(m);
  let bestLoss = Infinity;
  let bestEpoch = 0;
  let epoch = 0;

  for (epoch = 1; epoch <= epochs; epoch++) {
    rng.shuffle(order);
    let trainLoss = 0;
    for (let start = 0; start < order.length; start += batchSize) {
      const end = Math.min(start + batchSize, order.length);
      g.w1.fill(0);
      g.b1.fill(0);
      g.w2.fill(0);
      g.b2.fill(0);
      const scale = 1 / (end - start);
      for (let b = start; b < end; b++) {
        const r = order[b];
        const o = r * d;
        forwardRow(m, xs, o, h, p);
        const mask = train.y[r];
        const w = (train.weight ? train.weight[r] : 1) * scale;
        trainLoss += setLoss(p, mask, classes) * (train.weight ? train.weight[r] : 1);
        // d(-log sum_S p)/dz = p - q, with q = p restricted to the allowed set and renormalised.
        let s = 0;
        for (let c = 0; c < classes; c++) if (mask & (1 << c)) s += p[c];
        s = Math.max(s, 1e-12);
        for (let c = 0; c < classes; c++) dz[c] = w * (p[c] - (mask & (1 << c) ? p[c] / s : 0));
        const input = hidden ? h : xs;
        const io = hidden ? 0 : o;
        if (hidden) dh.fill(0);
        for (let c = 0; c < classes; c++) {
          const gc = dz[c];
          g.b2[c] += gc;
          const wo = c * width;
          for (let j = 0; j < width; j++) {
            g.w2[wo + j] += gc * input[io + j];
            if (hidden) dh[j] += gc * m.w2[wo + j];
          }
        }
        if (hidden) {
          for (let k = 0; k < hidden; k++) {
            if (h[k] <= 0) continue;
            const gk = dh[k];
            g.b1[k] += gk;
            const wo = k * d;
            for (let j = 0; j < d; j++) g.w1[wo + j] += gk * xs[o + j];
          }
        }
      }
      for (let i = 0; i < g.w2.length; i++) g.w2[i] += l2 * m.w2[i];
      for (let i = 0; i < g.w1.length; i++) g.w1[i] += l2 * m.w1[i];
      opt.w2.step(g.w2);
      opt.b2.step(g.b2);
      if (hidden) {
        opt.w1.step(g.w1);
        opt.b1.step(g.b1);
      }
    }
    trainLoss /= train.rows;
    const entry: TrainResult['history'][number] = { epoch, trainLoss };
    if (val && vxs) {
      const ev = evaluateStandardised(m, vxs, val.y, val.rows);
      entry.valLoss = ev.loss;
      entry.valAccuracy = ev.accuracy;
      if (ev.loss < bestLoss - 1e-5) {
        bestLoss = ev.loss;
        bestEpoch = epoch;
        best = cloneModel(m);
      }
    } else {
      best = cloneModel(m);
      bestEpoch = epoch;
    }
    history.push(entry);
    opts.log?.(
      `epoch ${epoch}: train loss ${trainLoss.toFixed(4)}` +
        (entry.valLoss !== undefined ? `, val loss ${entry.valLoss.toFixed(4)}, val acc ${(entry.valAccuracy! * 100).toFixed(2)}%` : ''),
    );
    if (val && epoch - bestEpoch >= patience) break;
  }
  return { model: best, bestEpoch, epochsRun: Math.min(epoch, epochs), history };
}
