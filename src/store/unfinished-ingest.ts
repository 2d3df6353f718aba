/**
 * An index whose ingest has not finished (issue 45): a run stopped by a kill, a Ctrl-C, or a source that
 * could not be read past a point left its checkpoint behind. What it committed is searchable, but the
 * source is not all there (and after a kill the full-text index may not cover the last batches), so every
 * search says so (CLI) and health reports it (server).
 */
import type { IngestCheckpoint, Store } from './types.js';

export interface UnfinishedIngest {
  /** The source as given to ingest, without its format prefix. */
  source: string;
  format: string;
  /** Records committed so far. */
  records: number;
  updatedAt: string;
}

export async function unfinishedIngests(store: Store): Promise<UnfinishedIngest[]> {
  const cps: IngestCheckpoint[] = (await store.unfinishedIngests?.()) ?? [];
  return cps.map((cp) => {
    const colon = cp.source.indexOf(':');
    return { source: cp.source.slice(colon + 1), format: cp.source.slice(0, colon), records: cp.records, updatedAt: cp.updatedAt };
  });
}

/** One line a source, saying what is missing and how to finish. */
export function unfinishedNotice(list: UnfinishedIngest[], indexArg: string): string[] {
  return list.map(
    (u) =>
      `warning: this index is incomplete: the ingest of ${u.source} (${u.format}) has not finished (${u.records} records committed, last at ${u.updatedAt}); results cover only what it committed. Finish it with: veracite index ${JSON.stringify(u.source)} --format ${u.format}${indexArg}`,
  );
}
