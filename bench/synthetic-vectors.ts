/**
 * Clustered synthetic vectors for the dense benchmark, served through the Embedder interface so the real
 * ingest path (cache aside) stores them: a text's vector is a cluster centroid plus Gaussian noise, both
 * chosen by a hash of the text, so the same text always gets the same vector.
 */
import { createHash } from 'node:crypto';
import type { Embedder, ModelInfo } from '../src/models/types.js';
import { uniform } from '../src/util/rng.js';

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export class ClusteredEmbedder implements Embedder {
  readonly info: ModelInfo;
  private readonly centroids: Float32Array[];
  constructor(readonly dimension = 512, clusters = 1000, private readonly noise = 0.35, seed = 7) {
    const rand = uniform(seed);
    this.centroids = Array.from({ length: clusters }, () => normalise(Float32Array.from({ length: dimension }, () => gaussian(rand))));
    this.info = { id: `synthetic-clustered-${dimension}d-${clusters}c`, version: String(seed), backend: 'synthetic' };
  }
  vectorFor(text: string): Float32Array {
    const h = createHash('sha1').update(text).digest();
    const rand = uniform(h.readUInt32LE(0));
    const c = this.centroids[h.readUInt32LE(4) % this.centroids.length]!;
    const v = new Float32Array(this.dimension);
    const scale = this.noise / Math.sqrt(this.dimension);
    // Noise of norm ~`noise` around a unit centroid.
    for (let i = 0; i < this.dimension; i++) v[i] = c[i]! + scale * gaussian(rand);
    return normalise(v);
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.vectorFor(t));
  }
}
