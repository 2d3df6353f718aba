/**
 * LanceDB's index cache, sized for the index it serves.
 *
 * LanceDB keeps index data (HNSW partitions, full-text postings, B-trees) in a per-session cache of 6 GB by
 * default. An index whose cached form is larger than that is evicted and reloaded by every query: at 5M
 * 512-d passages (5 HNSW-SQ partitions, 4.4 GB of index files, ~7.9 GB once cached) each ANN query took
 * 1.3-5 s with the default cache and 14-19 ms with a 16 GB one (bench/bench-scale.ts, docs/SIZING.md). So a
 * store opens its session with room for its own indices: twice their size on disk plus 1 GB (the cached
 * form measured 1.8x), never less than LanceDB's default, and never more than half the machine's memory
 * (the cache is an upper bound, filled only as queries touch the index).
 */
import { readdirSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';

export const LANCE_DEFAULT_INDEX_CACHE = 6 * 2 ** 30;
const CACHED_PER_DISK_BYTE = 2;
const MARGIN = 2 ** 30;

/** Bytes of index files (`<table>.lance/_indices/**`) in an index directory; 0 when there are none. */
export function indexFilesBytes(dir: string): number {
  let total = 0;
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) total += statSync(p).size;
    }
  };
  let tables: string[] = [];
  try {
    tables = readdirSync(dir).filter((n) => n.endsWith('.lance'));
  } catch {
    return 0;
  }
  for (const t of tables) walk(join(dir, t, '_indices'));
  return total;
}

/** The index cache an index needs (see the module comment); undefined = LanceDB's default is enough. */
export function indexCacheBytesFor(indexBytes: number, machineBytes = totalmem()): number | undefined {
  const need = CACHED_PER_DISK_BYTE * indexBytes + MARGIN;
  if (need <= LANCE_DEFAULT_INDEX_CACHE) return undefined;
  return Math.max(LANCE_DEFAULT_INDEX_CACHE, Math.min(need, Math.floor(machineBytes / 2)));
}

/**
 * The session a store connects with: `bytes` when given (validated), else sized for the index files in
 * `dir`; undefined keeps LanceDB's default session.
 */
export function lanceSession(dir: string, bytes: number | undefined): lancedb.Session | undefined {
  if (bytes !== undefined && (!Number.isFinite(bytes) || bytes <= 0)) throw new Error(`index cache size must be a positive number of bytes (got ${bytes})`);
  const size = bytes ?? indexCacheBytesFor(indexFilesBytes(dir));
  return size === undefined ? undefined : new lancedb.Session(BigInt(Math.round(size)));
}
