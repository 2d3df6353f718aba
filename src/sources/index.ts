/**
 * Source text of a citation: index lookup by URL, a local snapshot folder, or (opt-in) a live,
 * SSRF-guarded fetch with an on-disk cache and archive fallback.
 */
export type { ResolvedSource, SourceAttempt, SourceRef, SourceStatus, SourceVia } from './types.js';
export { SourceResolver, type LiveFetchOptions, type SourceResolverOptions } from './resolve-source.js';
export { SnapshotFolder, SNAPSHOT_MANIFEST, type SnapshotLookup } from './snapshot-folder.js';
export { PageCache, type CachedPage, type PageCacheOptions } from './page-cache.js';
export { fetchPage, DEFAULT_FETCH_POLICY, type FetchPolicy, type FetchResult, type FetchFailureStatus } from './http-fetch.js';
export { resolveChecked, pinnedLookup, BlockedAddressError, BadUrlError, DnsError, type GuardOptions, type Resolver, type CheckedTarget } from './ssrf-guard.js';
export { forbiddenAddressReason, parseIpv4, parseIpv6 } from './ip-ranges.js';
export { waybackUrl, waybackTimestamp, originalFromArchiveUrl, WAYBACK_BASE } from './archive.js';
export { pageToDocument, urlKey, type PageKind } from './page-text.js';
