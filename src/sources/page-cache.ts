/**
 * On-disk cache of live fetches, one JSON file per normalised URL (`<urlKey>.json`): the extracted
 * document (not the raw HTML: smaller, and extraction is the slow part) or the failure. A re-run of an
 * audit then touches the network only for what it has not seen. Failures expire sooner than pages
 * (a timeout today may be a page tomorrow). Writes go through a temporary file and a rename, so an
 * interrupted run never leaves a half-written entry; temporary names are unique per write (util/
 * atomic-file.ts), so two citations of one page (spelled `127.1` and `2130706433`: one key) finishing at
 * the same moment both succeed, the last one winning.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Document } from '../corpus/types.js';
import { writeJsonAtomic } from '../util/atomic-file.js';
import type { FetchFailureStatus } from './http-fetch.js';
import { urlKey } from './page-text.js';

export type CachedPage =
  | { ok: true; url: string; finalUrl: string; fetchedAt: string; contentType: string; document: Document }
  | { ok: false; url: string; finalUrl: string; fetchedAt: string; status: FetchFailureStatus | 'unreadable'; reason: string; httpStatus?: number };

export interface PageCacheOptions {
  /** Pages older than this are fetched again (default 30 days). */
  maxAgeMs?: number;
  /** Failures older than this are retried (default 1 day). */
  failureMaxAgeMs?: number;
}

const DAY = 24 * 3600 * 1000;

export class PageCache {
  private readonly maxAgeMs: number;
  private readonly failureMaxAgeMs: number;
  constructor(
    readonly dir: string,
    opts: PageCacheOptions = {},
  ) {
    this.maxAgeMs = opts.maxAgeMs ?? 30 * DAY;
    this.failureMaxAgeMs = opts.failureMaxAgeMs ?? DAY;
  }

  private path(url: string): string {
    return join(this.dir, `${urlKey(url)}.json`);
  }

  /** `anyAge`: a replay (`--offline`) reads entries whatever their age. */
  async get(url: string, now = Date.now(), anyAge = false): Promise<CachedPage | undefined> {
    let entry: CachedPage;
    try {
      entry = JSON.parse(await readFile(this.path(url), 'utf8')) as CachedPage;
    } catch {
      return undefined; // missing or unreadable: fetch again
    }
    const age = now - Date.parse(entry.fetchedAt);
    if (!anyAge && (!(age >= 0) || age > (entry.ok ? this.maxAgeMs : this.failureMaxAgeMs))) return undefined;
    return entry;
  }

  async put(entry: CachedPage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomic(this.path(entry.url), entry);
  }
}
