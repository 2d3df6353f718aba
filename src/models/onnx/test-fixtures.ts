import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTinyBertModel, type TinyBertOptions } from './tiny-model.js';

/** Temp-dir management for the ONNX tests: each built model gets its own folder under one root. */
export class TempModels {
  private root: string | undefined;
  private count = 0;

  async build(options: TinyBertOptions, name?: string): Promise<string> {
    this.root ??= await mkdtemp(path.join(tmpdir(), 'veracite-onnx-'));
    this.count += 1;
    const dir = path.join(this.root, name ?? `model-${this.count}`);
    await buildTinyBertModel(dir, options);
    return dir;
  }

  async cleanup(): Promise<void> {
    if (this.root !== undefined) await rm(this.root, { recursive: true, force: true });
  }
}

/** Words that are single tokens in the tiny vocabulary, so token counts are predictable. */
export const ONE_TOKEN_WORDS =
  'the claim evidence study report data result patients trial vaccine drug water earth moon sun city'.split(' ');

export function words(n: number, offset = 0): string {
  return Array.from({ length: n }, (_, i) => ONE_TOKEN_WORDS[(i + offset) % ONE_TOKEN_WORDS.length]).join(' ');
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}
