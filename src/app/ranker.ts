/**
 * The source ranker of an audit, or why sources are ordered by the engine's score alone: no index (nothing
 * to recommend from), an engine without the USE encoder the ranker's `dense` feature needs, no weights, or
 * weights trained with another engine. A ranker asked for by path that cannot be used is an error; the
 * default one missing is a note.
 */
import { existsSync } from 'node:fs';
import type { RankerDeps } from '../audit/audit.js';
import { corpusStats } from '../audit/corpus-stats.js';
import { storedVectorsOf } from '../audit/rank-features.js';
import { SourceRanker, defaultRankerPath } from '../audit/source-ranker.js';
import type { Store } from '../store/types.js';
import { SettingsError } from '../util/settings-error.js';
import type { Engine } from './models.js';

/** `audit.ranker`: 'default' | 'off' | a weights file. */
export async function loadRanker(spec: string, engine: Engine, store: Store | undefined, indexDir?: string): Promise<RankerDeps | { reason: string }> {
  if (spec === 'off') return { reason: 'source ranker off' };
  if (!store) return { reason: 'no index: no recommendations to rank' };
  const explicit = spec !== 'default';
  const path = explicit ? spec : defaultRankerPath();
  const fail = (why: string): { reason: string } => {
    if (explicit) throw new SettingsError('audit.ranker', why);
    return { reason: `sources ordered by the verification engine: ${why}` };
  };
  if (!engine.embedder) return fail(`the ranker needs the trained engine's USE encoder, not ${engine.scorer.info.id}`);
  if (!existsSync(path)) return fail(`no ranker weights at ${path}`);
  const ranker = await SourceRanker.load(path);
  const mismatch = ranker.mismatch(engine.scorer.info);
  if (mismatch) return fail(mismatch);
  const storedVectors = storedVectorsOf(store, engine.embedder);
  return { ranker, stats: await corpusStats(store, indexDir), embedder: engine.embedder, ...(storedVectors ? { storedVectors } : {}) };
}

/**
 * The ranker's weights alone, checked against the engine (calibration and detection evaluations score
 * pages outside any index): undefined for 'off'.
 */
export async function rankerWeights(spec: string, engine: Engine): Promise<{ ranker: SourceRanker; embedder: NonNullable<Engine['embedder']> } | undefined> {
  if (spec === 'off') return undefined;
  const path = spec === 'default' ? defaultRankerPath() : spec;
  if (!existsSync(path)) throw new SettingsError('audit.ranker', `no ranker weights at ${path} (train them with veracite train-ranker)`);
  const ranker = await SourceRanker.load(path);
  const mismatch = ranker.mismatch(engine.scorer.info);
  if (mismatch) throw new SettingsError('audit.ranker', mismatch);
  if (!engine.embedder) throw new SettingsError('audit.ranker', `the ranker needs the trained engine's USE encoder, not ${engine.scorer.info.id}`);
  return { ranker, embedder: engine.embedder };
}
