import type { ModelInfo } from '../models/types.js';

/** Enough to reproduce a result: which index content, which models, which settings. */
export interface Provenance {
  /** Store snapshot id (changes on every write to the index). */
  snapshot: string;
  engine: string;
  models: ModelInfo[];
  config: Record<string, unknown>;
  configHash: string;
  veraciteVersion: string;
  createdAt: string;
}
