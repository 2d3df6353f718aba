/**
 * Vectors added to an existing index: ingest BM25-only first (fast), embed later. `embedMissing` embeds
 * only the passages that have no vector yet, a batch at a time, each batch committed before the next, so an
 * interrupted run (Ctrl-C through `signal`, a crash, kill -9) resumes where it stopped: the next run simply
 * finds fewer passages without vectors. This is what `veracite index --dense` on an existing index runs.
 */
import type { Passage } from '../corpus/types.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { searchTextOf } from './arrow-batch.js';
import type { EmbeddingCache } from './embedding-cache.js';
import type { Store } from './types.js';

/** The store methods vector backfill needs (LanceStore, MemoryStore and OpenSearchStore have them). */
export interface VectorBackfillStore extends Store {
  /** Counts for progress: passages with a vector, and all passages. */
  vectorCounts(): Promise<{ withVector: number; total: number }>;
  /** Prepares the store for vectors of this dimension (fails if it holds vectors of another). */
  ensureVectorColumn(dimension: number): Promise<void>;
  /**
   * Passages without a vector, in batches of at most `batchSize`. Reads one snapshot: passages written
   * after the call are not seen (the next run picks them up).
   */
  passagesWithoutVectors(batchSize: number): AsyncIterable<Passage[]>;
  /** Stores the vectors of existing passages; each call is one atomic commit. */
  setPassageVectors(items: { passage: Passage; vector: Float32Array }[]): Promise<void>;
  setSetting(key: string, value: unknown): Promise<void>;
  /**
   * Removes every passage vector and the vector index in one commit (re-embedding with another model:
   * `reembed`); the passages and their BM25 index stay. A store that cannot change its vector dimension
   * in place says so.
   */
  dropVectors(): Promise<void>;
}

export interface EmbedMissingOptions {
  /**
   * Passages embedded and committed together (default 20,000). Each commit is a LanceDB merge on `id`
   * whose fixed cost is large: on 134k passages, 5,000-passage batches ran at 3.6k passages/s (slowing as
   * the table filled), 20,000-passage batches at 12k/s (bench/bench-backfill.ts).
   */
  batchSize?: number;
  embeddingCache?: EmbeddingCache;
  /** Build or refresh the vector index at the end (default true). */
  buildIndex?: boolean;
  /** Stop after the batch in flight. */
  signal?: AbortSignal;
  /**
   * The index's vectors come from another model and are to be replaced (app/index-embedder.ts): they are
   * dropped first, the new model is recorded, and every passage is embedded again. Interrupted, the next
   * run finds the new model recorded and resumes as an ordinary backfill.
   */
  reembed?: boolean;
  onProgress?: (p: EmbedMissingProgress) => void;
}

export interface EmbedMissingProgress {
  /** Passages embedded in this run. */
  embedded: number;
  /** Passages that had no vector when the run started. */
  missing: number;
  passagesPerSecond: number;
  etaSeconds: number;
}

export interface EmbedMissingSummary {
  embedded: number;
  /** Passages that already had a vector (left untouched). */
  alreadyEmbedded: number;
  interrupted: boolean;
  seconds: number;
  /** The vectors of another model were dropped and this run began embedding every passage again. */
  reembedded?: boolean;
  vectorIndex?: string;
}

/**
 * Same vector space: the same model id and version, or (ONNX) the same weights file by hash under another
 * name (a model folder named by its path is recorded under the folder's name).
 */
export function sameVectorSpace(a: ModelInfo, b: ModelInfo): boolean {
  if (a.version !== b.version) return false;
  return a.id === b.id || (a.backend === 'onnx' && b.backend === 'onnx' && a.version.startsWith('sha256:'));
}

/**
 * The model that made the index's vectors, or undefined when it holds none: a record left without vectors (a
 * re-embed stopped after dropping them) has nothing to mix with.
 */
export async function recordedEmbedder(store: Store): Promise<ModelInfo | undefined> {
  return (await store.vectorDimension()) === undefined ? undefined : (store.settings['embedder'] as ModelInfo | undefined);
}

export async function embedMissing(store: VectorBackfillStore, embedder: Embedder, opts: EmbedMissingOptions = {}): Promise<EmbedMissingSummary> {
  const started = performance.now();
  let recorded = await recordedEmbedder(store);
  let reembedded = false;
  if (opts.reembed && recorded && !sameVectorSpace(recorded, embedder.info)) {
    // Dropped before the new model is recorded: a crash in between leaves no vectors and the old record,
    // which recordedEmbedder then ignores, so the next run embeds as into a BM25-only index.
    await store.dropVectors();
    await store.setSetting('embedder', embedder.info);
    recorded = embedder.info;
    reembedded = true;
  }
  if (recorded && !sameVectorSpace(recorded, embedder.info)) {
    throw new Error(
      `the index's vectors were made by ${recorded.id}@${recorded.version}; embedding the rest with ${embedder.info.id}@${embedder.info.version} would mix two vector spaces (use the same embedder, or build a new index)`,
    );
  }
  await store.ensureVectorColumn(embedder.dimension);
  // Recorded before the first vector is written, so a resumed run is checked against it.
  if (!recorded) await store.setSetting('embedder', embedder.info);
  const before = await store.vectorCounts();
  const missing = before.total - before.withVector;
  const summary: EmbedMissingSummary = { embedded: 0, alreadyEmbedded: before.withVector, interrupted: false, seconds: 0, ...(reembedded ? { reembedded } : {}) };
  for await (const passages of store.passagesWithoutVectors(opts.batchSize ?? 20_000)) {
    const texts = passages.map((p) => searchTextOf(p.title, p.text));
    const vectors = opts.embeddingCache ? await opts.embeddingCache.embed(embedder, texts) : await embedder.embed(texts);
    await store.setPassageVectors(passages.map((passage, i) => ({ passage, vector: vectors[i]! })));
    summary.embedded += passages.length;
    const seconds = (performance.now() - started) / 1000;
    const rate = summary.embedded / seconds;
    opts.onProgress?.({ embedded: summary.embedded, missing, passagesPerSecond: rate, etaSeconds: rate > 0 ? (missing - summary.embedded) / rate : Infinity });
    if (opts.signal?.aborted) {
      summary.interrupted = true;
      break;
    }
  }
  // Writing vectors rewrites the passages' rows (a LanceDB merge), which leaves them outside the text and
  // lookup indices until those are rebuilt: BM25 then scans them unindexed with other statistics.
  if (!summary.interrupted && summary.embedded > 0) await store.buildTextIndex();
  if (!summary.interrupted && opts.buildIndex !== false) summary.vectorIndex = await store.buildVectorIndex();
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
