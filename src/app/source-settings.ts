/**
 * Where sources live, from the settings: the index's local directory, the page cache beside it, and the
 * metadata APIs' options (mirrors, contact e-mail, spacing, offline replay). Apart from the audit's assembly
 * (audit.ts) so that search (search.ts) reads them without an import cycle.
 */
import { join } from 'node:path';
import { WORK_API_BASES } from '../sources/work-api-bases.js';
import { envContactEmail } from '../sources/user-agent.js';
import type { WorkRecordOptions } from '../sources/work-records.js';
import { storeEngineOf } from '../store/open-store.js';
import type { Settings } from './settings.js';

/** The index's local directory, for files kept beside it; undefined for a server index (OpenSearch) or none. */
export function localIndexDir(settings: Settings): string | undefined {
  const spec = settings.index.dir;
  return spec && storeEngineOf(spec) === 'lancedb' ? spec : undefined;
}

/** The metadata APIs' settings (src/sources/work-records.ts): mirrors, contact e-mail, OpenAlex, spacing. */
export function workOptions(settings: Settings): WorkRecordOptions {
  const s = settings.sources;
  return {
    ...(s.apis ? { bases: Object.fromEntries(Object.entries(s.apis).filter(([k]) => k in WORK_API_BASES)) as WorkRecordOptions['bases'] } : {}),
    ...(contactEmail(settings) ? { email: contactEmail(settings)! } : {}),
    openAbstracts: s.openAbstracts,
    ...(s.apiIntervalMs !== undefined ? { intervalMs: s.apiIntervalMs } : {}),
    ...(s.offline ? { offline: true } : {}),
  };
}

/**
 * The contact for the APIs' polite pools and the User-Agent (Wikimedia's policy wants one): --contact-email
 * (sources.contactEmail), else VERACITE_CONTACT_EMAIL, else none (the User-Agent then names the project page).
 */
export function contactEmail(settings: Settings): string | undefined {
  return settings.sources.contactEmail ?? envContactEmail();
}

/** Where fetched pages are cached: beside a local index, else in .veracite/. */
export function pageCacheDir(settings: Settings): string {
  const dir = localIndexDir(settings);
  return settings.sources.cache ?? (dir ? join(dir, 'page-cache') : join('.veracite', 'page-cache'));
}
