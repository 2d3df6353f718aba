/**
 * Loads the source ranker for an audit, or says why the audit orders sources by the engine's score alone:
 * no index (nothing to recommend from), an engine without the USE encoder the ranker's `dense` feature
 * needs, no weights, or weights trained with another engine. A ranker the user asked for by path that
 * cannot be used is an error; the default one missing is a note.
 */
import { existsSync } from 'node:fs';
import type { Embedder, ModelInfo } from '../models/types.js';
import type { Store } from '../store/types.js';
import type { RankerDeps } from './audit.js';
import { corpusStats } from './corpus-stats.js';
import type { LoadedScorer } from './load-scorer.js';
import { SourceRanker, defaultRankerPath } from './source-ranker.js';

export async function loadRankerDeps(
  spec: string | false | undefined,
  scorer: LoadedScorer,
  store: Store | undefined,
  indexDir?: string,
): Promise<RankerDeps | { reason: string }> {
  if (spec === false) return { reason: 'source ranker off (--no-ranker)' };
  if (!store) return { reason: 'no index: no recommendations to rank' };
  const path = spec ?? defaultRankerPath();
  const fail = (why: string): { reason: string } => {
    if (spec) throw new Error(`--ranker ${spec}: ${why}`);
    return { reason: `sources ordered by the verification engine: ${why}` };
  };
  if (!scorer.embedder) return fail(`the ranker needs the trained engine's USE encoder, not ${scorer.scorer.info.id}`);
  if (!existsSync(path)) return fail(`no ranker weights at ${path}`);
  const ranker = await SourceRanker.load(path);
  const mismatch = ranker.mismatch(scorer.scorer.info);
  if (mismatch) return fail(mismatch);
  const embedder = scorer.embedder;
  const storedVectors = storedVectorsOf(store, embedder);
  return { ranker, stats: await corpusStats(store, indexDir), embedder, ...(storedVectors ? { storedVectors } : {}) };
}

/** The index's passage vectors as a cache for the ranker's `dense` feature, when the same encoder made them. */
export function storedVectorsOf(store: Store, embedder: Embedder): RankerDeps['storedVectors'] | undefined {
  const made = store.settings['embedder'] as ModelInfo | undefined;
  if (made?.id !== embedder.info.id || made.version !== embedder.info.version) return undefined;
  return (ids) => store.passageVectors(ids);
}
