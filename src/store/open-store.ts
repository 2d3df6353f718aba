/**
 * One entry point from an index spec to a Store, for the composition root:
 *   a directory                      -> LanceStore (embedded LanceDB)
 *   opensearch://host:port/name      -> OpenSearchStore (HTTPS; opensearch+http:// for plain HTTP;
 *                                       credentials from OPENSEARCH_USERNAME/PASSWORD or OPENSEARCH_URL)
 *   memory:                          -> MemoryStore (nothing persisted: tests, demos)
 * Every engine returned implements VectorBackfillStore (Store + adding vectors to an existing index).
 */
import { LanceStore, type LanceStoreOptions } from './lancedb-store.js';
import type { VectorBackfillStore } from './dense-backfill.js';
import { isOpenSearchSpec } from './opensearch/opensearch-spec.js';
import type { OpenSearchStoreOptions } from './opensearch/opensearch-store.js';

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
  /** LanceDB: when a writer takes the index's writer lock, and what a refused writer is told. */
  lance?: Pick<LanceStoreOptions, 'lock' | 'lockOptions'>;
}

export type StoreEngine = 'lancedb' | 'opensearch' | 'memory';

export function storeEngineOf(indexSpec: string): StoreEngine {
  if (isOpenSearchSpec(indexSpec)) return 'opensearch';
  if (indexSpec === 'memory:') return 'memory';
  return 'lancedb';
}

export async function openStore(indexSpec: string, opts: OpenStoreOptions = {}): Promise<VectorBackfillStore> {
  switch (storeEngineOf(indexSpec)) {
    // Loaded on demand: every command opens a store, few use these engines (the OpenSearch client and the
    // in-memory BM25 are not small).
    case 'opensearch': {
      const { OpenSearchStore } = await import('./opensearch/opensearch-store.js');
      return OpenSearchStore.open(indexSpec, { ...opts.opensearch, create: opts.create, readOnly: opts.readOnly });
    }
    case 'memory': {
      if (opts.readOnly) throw new Error('memory: a new in-memory index is empty; read-only makes no sense for it');
      const { MemoryStore } = await import('./memory/memory-store.js');
      return new MemoryStore();
    }
    case 'lancedb':
      return LanceStore.open(indexSpec, { ...opts.lance, create: opts.create, readOnly: opts.readOnly, refreshSeconds: opts.refreshSeconds });
  }
}
