/**
 * An embedder wrapper that remembers vectors by text for the life of the process. An audit embeds the
 * same texts again and again: a page cited five times, a candidate page retrieved for neighbouring claims,
 * the existing source showing up among the candidates. Keeps the model's `info`, so a trained head that
 * checks its embedder id accepts the wrapper.
 */
import type { Embedder } from './types.js';

/** A persistent vector cache (the index's EmbeddingCache is one): embeds only what it has not stored. */
export interface VectorCache {
  embed(embedder: Embedder, texts: string[]): Promise<Float32Array[]>;
}

export interface MemoEmbedderOptions {
  /** Vectors kept in memory (oldest dropped first); 50k 512-d vectors are ~100 MB. */
  capacity?: number;
  /** Also keep vectors on disk across runs (evaluations re-embed the same pages). */
  persist?: VectorCache;
}

export class MemoEmbedder implements Embedder {
  readonly info: Embedder['info'];
  readonly dimension: number;
  private readonly memo = new Map<string, Float32Array>();
  hits = 0;
  misses = 0;

  private readonly capacity: number;
  private readonly persist: VectorCache | undefined;

  constructor(
    private readonly inner: Embedder,
    opts: MemoEmbedderOptions = {},
  ) {
    this.info = inner.info;
    this.dimension = inner.dimension;
    this.capacity = opts.capacity ?? 50_000;
    this.persist = opts.persist;
  }

  private compute(texts: string[]): Promise<Float32Array[]> {
    return this.persist ? this.persist.embed(this.inner, texts) : this.inner.embed(texts);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.memo.has(t)))];
    this.hits += texts.length - missing.length;
    this.misses += missing.length;
    if (missing.length) {
      const vecs = await this.compute(missing);
      missing.forEach((t, i) => this.memo.set(t, vecs[i]!));
      while (this.memo.size > this.capacity) this.memo.delete(this.memo.keys().next().value!);
    }
    // A text evicted between the two steps above (only with a tiny capacity) is embedded again.
    const out: Float32Array[] = [];
    for (const t of texts) out.push(this.memo.get(t) ?? (await this.compute([t]))[0]!);
    return out;
  }

  /** Forgets the vectors; the inner embedder is shared (one USE per process) and stays open. */
  async dispose(): Promise<void> {
    this.memo.clear();
  }
}
