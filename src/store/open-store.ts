/**
 * One entry point from an index spec to a Store, for the composition root:
 *   a directory                      -> LanceStore (embedded LanceDB)
 *   opensearch://host:port/name      -> OpenSearchStore (HTTPS; opensearch+http:// for plain HTTP;
 *                                       credentials from OPENSEARCH_USERNAME/PASSWORD or OPENSEARCH_URL)
 *   memory:                          -> MemoryStore (nothing persisted: tests, demos)
 * Every engine returned implements VectorBackfillStore (Store + adding vectors to an existing index).
 */
import { LanceStore } from './lancedb-store.js';
import type { VectorBackfillStore } from './dense-backfill.js';
import { MemoryStore } from './memory/memory-store.js';
import { isOpenSearchSpec } from './opensearch/opensearch-spec.js';
import { OpenSearchStore, type OpenSearchStoreOptions } from './opensearch/opensearch-store.js';

export interface OpenStoreOptions {
  /** Create an empty index when none exists (default true; ignored when readOnly). */
  create?: boolean;
  /**
   * Never write or create: a server process beside a writer process. LanceDB: new table versions are
   * picked up within `refreshSeconds`; OpenSearch: within the index refresh interval.
   */
  readOnly?: boolean;
  /** Read-only LanceDB: the longest a read may lag the writer, in seconds (default 1). */
  refreshSeconds?: number;
  /** OpenSearch index creation: shards, replicas, bulk size. */
  opensearch?: Pick<OpenSearchStoreOptions, 'shards' | 'replicas' | 'bulkDocuments'>;
}

export type StoreEngine = 'lancedb' | 'opensearch' | 'memory';

export function storeEngineOf(indexSpec: string): StoreEngine {
  if (isOpenSearchSpec(indexSpec)) return 'opensearch';
  if (indexSpec === 'memory:') return 'memory';
  return 'lancedb';
}

export async function openStore(indexSpec: string, opts: OpenStoreOptions = {}): Promise<VectorBackfillStore> {
  switch (storeEngineOf(indexSpec)) {
    case 'opensearch':
      return OpenSearchStore.open(indexSpec, { ...opts.opensearch, create: opts.create, readOnly: opts.readOnly });
    case 'memory':
      if (opts.readOnly) throw new Error('memory: a new in-memory index is empty; read-only makes no sense for it');
      return new MemoryStore();
    case 'lancedb':
      return LanceStore.open(indexSpec, { create: opts.create, readOnly: opts.readOnly, refreshSeconds: opts.refreshSeconds });
  }
}
