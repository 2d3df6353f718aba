/**
 * The committed weights format: one JSON file per head, float arrays as base64 little-endian float32.
 * One file (no .bin sidecar) keeps the hash that names the model trivially "the hash of this file", and
 * serialisation is deterministic (fixed key order, no timestamps) so the same seed gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdfTable } from './lexical.js';
import { PAIR_FEATURE_NAMES } from './features.js';
import type { SoftmaxModel } from './softmax.js';
import { packageRoot } from '../../util/package-root.js';

export const WEIGHTS_FORMAT = 'veracite-trained-head';
export const WEIGHTS_FORMAT_VERSION = 1;

export type HeadKind = 'nli' | 'evidence';

export interface HeadWeights {
  kind: HeadKind;
  /** Class names in logit order. */
  labels: string[];
  /** The embedder the head was trained on; its vectors are the head's input. */
  embedder: { id: string; version: string; dimension: number };
  lexicalFeatures: string[];
  idf: IdfTable;
  model: SoftmaxModel;
  /** Evidence scorer: P(evidence) at or above this counts as evidence (chosen on training data). */
  threshold?: number;
  /** Hyper-parameters and data sizes: deterministic facts only (no timings), so the hash is stable. */
  training: Record<string, unknown>;
}

export type TrainedModelErrorCode = 'weights-missing' | 'weights-invalid' | 'embedder-mismatch';

export class TrainedModelError extends Error {
  readonly code: TrainedModelErrorCode;
  readonly path: string | undefined;
  constructor(code: TrainedModelErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TrainedModelError';
    this.code = code;
    this.path = options.path;
  }
}

export const DEFAULT_WEIGHTS: Record<HeadKind, string> = { nli: 'models/nli-head.json', evidence: 'models/evidence-head.json' };

export function defaultWeightsPath(kind: HeadKind): string {
  return join(packageRoot(), DEFAULT_WEIGHTS[kind]);
}

function encode(a: Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function decode(s: unknown, expected: number, field: string): Float32Array {
  if (typeof s !== 'string') throw new Error(`model.${field} is not a base64 string`);
  const bytes = Buffer.from(s, 'base64');
  if (bytes.length !== expected * 4) throw new Error(`model.${field} has ${bytes.length / 4} values, expected ${expected}`);
  // Copy into a fresh (aligned) buffer: Buffer.from may return a slice of a shared pool.
  const out = new Float32Array(expected);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

export function serialiseWeights(w: HeadWeights): string {
  const m = w.model;
  const doc = {
    format: WEIGHTS_FORMAT,
    formatVersion: WEIGHTS_FORMAT_VERSION,
    kind: w.kind,
    labels: w.labels,
    embedder: w.embedder,
    lexicalFeatures: w.lexicalFeatures,
    threshold: w.threshold ?? null,
    training: w.training,
    model: {
      inputDim: m.inputDim,
      classes: m.classes,
      hidden: m.hidden,
      mean: encode(m.mean),
      std: encode(m.std),
      w1: encode(m.w1),
      b1: encode(m.b1),
      w2: encode(m.w2),
      b2: encode(m.b2),
    },
    idf: w.idf,
  };
  return `${JSON.stringify(doc)}\n`;
}

export function writeWeights(path: string, w: HeadWeights): string {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  const text = serialiseWeights(w);
  writeFileSync(path, text);
  return sha256(Buffer.from(text));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface LoadedWeights {
  weights: HeadWeights;
  /** Full hex sha256 of the file. */
  sha256: string;
  path: string;
}

/** Reads and validates a weights file; every problem is a TrainedModelError naming the path. */
export function readWeights(path: string, kind: HeadKind): LoadedWeights {
  const abs = resolve(path);
  if (!existsSync(abs)) {
    throw new TrainedModelError('weights-missing', `trained ${kind} weights not found at ${abs}; run "veracite train --only ${kind}" or pass the path of a weights file`, { path: abs });
  }
  const bytes = readFileSync(abs);
  try {
    const doc = JSON.parse(bytes.toString('utf8')) as Record<string, any>;
    if (doc.format !== WEIGHTS_FORMAT) throw new Error(`not a ${WEIGHTS_FORMAT} file (format: ${JSON.stringify(doc.format)})`);
    if (doc.formatVersion !== WEIGHTS_FORMAT_VERSION) throw new Error(`format version ${doc.formatVersion}, this build reads ${WEIGHTS_FORMAT_VERSION}`);
    if (doc.kind !== kind) throw new Error(`holds a "${doc.kind}" head, expected "${kind}"`);
    const names = doc.lexicalFeatures as string[];
    if (JSON.stringify(names) !== JSON.stringify(PAIR_FEATURE_NAMES)) throw new Error('pair feature list differs from this build (weights from another version: retrain with veracite train)');
    const mj = doc.model;
    const { inputDim, classes, hidden } = mj as { inputDim: number; classes: number; hidden: number };
    const dim = doc.embedder?.dimension;
    if (!Number.isInteger(dim) || inputDim !== 4 * dim + names.length) throw new Error(`inputDim ${inputDim} does not match a ${dim}-d embedder`);
    if (classes !== doc.labels?.length) throw new Error(`${classes} classes but ${doc.labels?.length} labels`);
    const width = hidden || inputDim;
    const model: SoftmaxModel = {
      inputDim,
      classes,
      hidden,
      mean: decode(mj.mean, inputDim, 'mean'),
      std: decode(mj.std, inputDim, 'std'),
      w1: decode(mj.w1, hidden * inputDim, 'w1'),
      b1: decode(mj.b1, hidden, 'b1'),
      w2: decode(mj.w2, classes * width, 'w2'),
      b2: decode(mj.b2, classes, 'b2'),
    };
    if (typeof doc.idf?.unseen !== 'number' || typeof doc.idf?.idf !== 'object') throw new Error('idf table missing');
    const weights: HeadWeights = {
      kind,
      labels: doc.labels,
      embedder: doc.embedder,
      lexicalFeatures: names,
      idf: doc.idf,
      model,
      threshold: typeof doc.threshold === 'number' ? doc.threshold : undefined,
      training: doc.training ?? {},
    };
    return { weights, sha256: sha256(bytes), path: abs };
  } catch (e) {
    throw new TrainedModelError('weights-invalid', `trained ${kind} weights at ${abs} are invalid: ${(e as Error).message}`, { path: abs, cause: e });
  }
}
