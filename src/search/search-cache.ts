/**
 * Every search answer, as the API sent it (its body, byte for byte), on disk beside the page cache
 * (`<cache>/search/<key>.json`), so that a run can be replayed without the network (`--offline`): the same
 * answers give the same hits, the same pages (PageCache) the same text, and so the same verdict. Entries
 * are keyed by provider and request path, not by host: a run recorded against a mirror replays against the
 * public API and back. Contact e-mails are left out of the key (they do not change the answer); keys sent
 * as headers (Brave) never reach the disk. Only answers are cached: "could not reach" says nothing about
 * tomorrow. Writes are atomic (util/atomic-file.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../util/atomic-file.js';

export interface CachedAnswer {
  /** provider + request path and query (what the key hashes). */
  request: string;
  fetchedAt: string;
  httpStatus: number;
  contentType: string;
  body: string;
}

const DAY = 24 * 3600 * 1000;
/** Parameters that do not change the answer (a contact, a key, MediaWiki's maxlag): never in a key. */
const PRIVATE_PARAMS = /^(mailto|email|api_key|key|maxlag)$/i;

/** The request as the cache knows it: the provider and the URL after its base, without contact parameters. */
export function requestKey(provider: string, url: string, base: string): string {
  const u = new URL(url);
  for (const k of [...u.searchParams.keys()]) if (PRIVATE_PARAMS.test(k)) u.searchParams.delete(k);
  u.searchParams.sort();
  const full = u.href;
  const rest = base && full.startsWith(base) ? full.slice(base.length) : `${u.pathname}${u.search}`;
  return `${provider} ${rest}`;
}

export class SearchCache {
  constructor(
    readonly dir: string,
    /** Answers older than this are asked again when online (default 7 days); offline, any age replays. */
    private readonly maxAgeMs = 7 * DAY,
  ) {}

  private path(request: string): string {
    return join(this.dir, 'search', `${createHash('sha256').update(request).digest('hex').slice(0, 32)}.json`);
  }

  async get(request: string, anyAge = false, now = Date.now()): Promise<CachedAnswer | undefined> {
    let entry: CachedAnswer;
    try {
      entry = JSON.parse(await readFile(this.path(request), 'utf8')) as CachedAnswer;
    } catch {
      return undefined;
    }
    if (entry.request !== request) return undefined;
    const age = now - Date.parse(entry.fetchedAt);
    if (!anyAge && !(age >= 0 && age <= this.maxAgeMs)) return undefined;
    return entry;
  }

  async put(entry: CachedAnswer): Promise<void> {
    await mkdir(join(this.dir, 'search'), { recursive: true });
    await writeJsonAtomic(this.path(entry.request), entry);
  }
}
