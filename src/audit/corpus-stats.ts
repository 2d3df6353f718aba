/**
 * BM25 statistics (document frequencies, average length) of an index's passages, for the source ranker's
 * lexical features. Computing them reads every passage once (17 s for 555k passages: bench/bench-corpus-stats.ts),
 * so they are kept beside the index in `corpus-stats.json`, tagged with the snapshot they describe: any write to the
 * index changes the snapshot and the next call recomputes them.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/types.js';
import { writeJsonAtomic } from '../util/atomic-file.js';
import { Bm25Stats, type Bm25StatsJson } from '../text/bm25-stats.js';

export const CORPUS_STATS_FILE = 'corpus-stats.json';

interface CorpusStatsFile extends Bm25StatsJson {
  snapshot: string;
}

/** Statistics of `store`, read from `indexDir`'s cache when it matches the store's snapshot. */
export async function corpusStats(store: Store, indexDir?: string): Promise<Bm25Stats> {
  const snapshot = await store.snapshot();
  const file = indexDir ? join(indexDir, CORPUS_STATS_FILE) : undefined;
  if (file && existsSync(file)) {
    try {
      const cached = JSON.parse(await readFile(file, 'utf8')) as CorpusStatsFile;
      if (cached.snapshot === snapshot) return Bm25Stats.fromJSON(cached);
    } catch {
      // A torn or foreign file is rebuilt below rather than trusted.
    }
  }
  const builder = Bm25Stats.builder();
  for await (const batch of store.passageTexts()) for (const t of batch) builder.add(t);
  const stats = builder.finish();
  // Crash-safe: an interrupted write never leaves a half file that a later run would read.
  if (file) await writeJsonAtomic(file, { snapshot, ...stats.toJSON() });
  return stats;
}
