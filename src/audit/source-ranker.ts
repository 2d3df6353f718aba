/**
 * The source ranker: orders candidate sources for a claim (and the existing source with them) by a
 * linear model over rank features (rank-features.ts). It sits on top of the verification engine: the
 * engine's document score is one of its features, and the file records which engine it was trained with,
 * because the weight of that feature means nothing for another engine.
 *
 * Weights file (`models/source-ranker.json`, written by `veracite train-ranker`):
 *   { format: "veracite-source-ranker", formatVersion: 1, features: [...], weights: [...],
 *     engine: ModelInfo, embedder: string, training: {...} }
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelInfo } from '../models/types.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { packageRoot } from '../util/package-root.js';
import { RANK_FEATURES } from './rank-features.js';
import { DEFAULT_RANKER_FILE } from './ranker-defaults.js';

export const RANKER_FORMAT = 'veracite-source-ranker';
// Defined in ranker-defaults.ts (light: the command line's help names it).
export { DEFAULT_RANKER_FILE };

export interface SourceRankerFile {
  format: typeof RANKER_FORMAT;
  formatVersion: 1;
  features: string[];
  weights: number[];
  /** The verification engine whose score is the `engine` feature. */
  engine: ModelInfo;
  /** The sentence encoder behind the `dense` feature. */
  embedder: string;
  training: Record<string, unknown>;
}

export function defaultRankerPath(): string {
  return join(packageRoot(), DEFAULT_RANKER_FILE);
}

export class SourceRanker {
  readonly info: ModelInfo;
  private constructor(
    readonly file: SourceRankerFile,
    sha: string,
  ) {
    this.info = { id: `veracite-source-ranker@${sha.slice(0, 12)}`, version: `sha256:${sha.slice(0, 16)}`, backend: 'trained' };
  }

  static fromJSON(text: string, where = 'source ranker'): SourceRanker {
    let f: SourceRankerFile;
    try {
      f = JSON.parse(text) as SourceRankerFile;
    } catch (e) {
      throw new Error(`${where}: not JSON (${(e as Error).message})`);
    }
    if (f?.format !== RANKER_FORMAT) throw new Error(`${where}: format is ${JSON.stringify(f?.format)}, expected "${RANKER_FORMAT}"`);
    if (f.formatVersion !== 1) throw new Error(`${where}: formatVersion ${f.formatVersion} is not supported (1)`);
    if (!Array.isArray(f.features) || f.features.join() !== RANK_FEATURES.join()) {
      throw new Error(`${where}: features [${f.features}] differ from this version's [${RANK_FEATURES.join(', ')}]; retrain with veracite train-ranker`);
    }
    if (!Array.isArray(f.weights) || f.weights.length !== RANK_FEATURES.length || !f.weights.every(Number.isFinite)) {
      throw new Error(`${where}: weights must be ${RANK_FEATURES.length} finite numbers`);
    }
    if (typeof f.engine?.id !== 'string' || typeof f.embedder !== 'string') throw new Error(`${where}: engine.id and embedder are required`);
    return new SourceRanker(f, createHash('sha256').update(text).digest('hex'));
  }

  static async load(path = defaultRankerPath()): Promise<SourceRanker> {
    if (!existsSync(path)) throw new Error(`source ranker weights not found: ${path} (train them with veracite train-ranker)`);
    return SourceRanker.fromJSON(await readFile(path, 'utf8'), path);
  }

  /** `load`, refusing weights trained with another engine (`where` names the option in the error). */
  static async loadFor(engine: ModelInfo, path: string, where = path): Promise<SourceRanker> {
    const ranker = await SourceRanker.load(path);
    const mismatch = ranker.mismatch(engine);
    if (mismatch) throw new Error(`${where}: ${mismatch}`);
    return ranker;
  }

  static serialise(weights: readonly number[], engine: ModelInfo, embedder: string, training: Record<string, unknown>): string {
    const f: SourceRankerFile = { format: RANKER_FORMAT, formatVersion: 1, features: [...RANK_FEATURES], weights: [...weights], engine, embedder, training };
    return JSON.stringify(f, null, 2) + '\n';
  }

  static async save(path: string, text: string): Promise<void> {
    await writeFileAtomic(path, text);
  }

  /** Why this ranker cannot order sources scored by `engine`, or undefined when it can. */
  mismatch(engine: ModelInfo): string | undefined {
    return engine.id === this.file.engine.id ? undefined : `source ranker was trained with engine ${this.file.engine.id}, not ${engine.id}`;
  }

  score(features: readonly number[]): number {
    return linearScore(this.file.weights, features);
  }
}

/** w·x: the ranker's score of one feature row (training computes the same). */
export function linearScore(w: readonly number[], x: readonly number[]): number {
  let s = 0;
  for (let j = 0; j < w.length; j++) s += w[j]! * x[j]!;
  return s;
}
