/**
 * A multistream dump read in parallel by stream (issue 38). Its index gives where each bzip2 stream
 * starts; the file is cut at those offsets into shares (multistream-index.ts), which worker threads
 * decompress and parse (multistream-share.ts) while this thread converts and writes. Shares are taken
 * back in file order, so pages come out exactly as a sequential read gives them: the same page order,
 * the same line numbers, and so the same resume count (the ingest checkpoint counts records).
 *
 * Memory: at most 2 shares a worker in flight (a share is at most 1 MB compressed, ~4 MB of XML).
 */
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { startModuleWorker } from '../util/module-worker.js';
import { WorkerPool } from '../util/worker-pool.js';
import type { PageParts, SiteInfo } from './mediawiki-sax.js';
import { findSiblingIndex, planShares, readStreamOffsets } from './multistream-index.js';
import type { ShareResult, ShareTask } from './multistream-share.js';
import { SourceReadError, type ReadOptions } from './types.js';

/** Read workers by default: a core for each, but one left to the thread that converts and writes. */
export function defaultReadWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The index to read `file` with, and how many workers: undefined (read it sequentially) without an index,
 * for a file that is not bzip2, or with `readWorkers: 0`. An index named with `indexFile` must exist.
 */
export async function multistreamIndexOf(file: string, opts: Pick<ReadOptions, 'indexFile' | 'readWorkers'>): Promise<{ file: string; workers: number } | undefined> {
  const workers = opts.readWorkers ?? defaultReadWorkers();
  if (!Number.isInteger(workers) || workers < 0) throw new Error(`read workers must be a whole number >= 0 (0: read on one thread), not ${workers}`);
  if (opts.indexFile) {
    await stat(opts.indexFile).catch(() => {
      throw new Error(`${opts.indexFile}: no such multistream index file (--index-file); give the "...-multistream-index.txt.bz2" published with the dump`);
    });
    if (!/\.bz2$/i.test(file)) throw new Error(`${file}: --index-file goes with a multistream .bz2 dump, and this file is not bzip2`);
  }
  if (workers === 0 || !/\.bz2$/i.test(file)) return undefined;
  const index = opts.indexFile ?? findSiblingIndex(file);
  return index ? { file: index, workers } : undefined;
}

/** Pages of `file` share by share, in file order; `site` is filled from the first share's siteinfo. */
export async function* multistreamPages(
  file: string,
  indexFile: string,
  site: SiteInfo,
  opts: { workers: number; lang: string | undefined; onBytes: ((read: number) => void) | undefined; maxPageBytes: number },
): AsyncGenerator<PageParts[]> {
  const { size } = await stat(file);
  const shares = planShares(await readStreamOffsets(indexFile, file, size), size, opts.workers);
  const pool = new WorkerPool({
    start: (limits) => startModuleWorker(import.meta.url, 'multistream-worker', null, limits),
    size: opts.workers,
    // No time limit worth the name (a share is a few MB of a file the user chose to index); the heap limit
    // only keeps a damaged stream from taking the machine.
    budget: { timeMs: 2 ** 31 - 1, heapMb: 4096 },
    flags: { time: '--read-workers 0', memory: '--read-workers 0 (read the dump on one thread)' },
    what: `reading ${file} by stream`,
  });
  const ahead = opts.workers * 2;
  const inFlight: { share: ShareTask; result: Promise<ShareResult> }[] = [];
  let next = 0;
  let lines = 0;
  try {
    while (next < shares.length || inFlight.length) {
      while (next < shares.length && inFlight.length < ahead) {
        const { start, end } = shares[next]!;
        const share: ShareTask = { file, start, end, last: end === size, maxPageBytes: opts.maxPageBytes, ...(opts.lang ? { lang: opts.lang } : {}) };
        const result = pool.run<ShareResult>('readShare', share);
        // Awaited in order below; a share failing while an earlier one is awaited must not go unhandled.
        result.catch(() => undefined);
        inFlight.push({ share, result });
        next++;
      }
      const { share, result } = inFlight.shift()!;
      const r = await result;
      if (!r.ok) {
        // The pages of the share before the break are read, as a sequential read gives them.
        for (const p of r.pages) p.line += lines;
        if (r.pages.length) yield r.pages;
        throw new SourceReadError(file, lines + r.line, `${file}:${lines + r.line}:${r.column}: not a readable MediaWiki XML export (${r.message})`);
      }
      if (r.site) {
        site.base ??= r.site.base;
        for (const n of r.site.namespaces) site.namespaces.add(n);
      }
      for (const p of r.pages) p.line += lines;
      lines += r.newlines;
      opts.onBytes?.(share.end);
      yield r.pages;
    }
  } finally {
    await pool.close();
  }
}
