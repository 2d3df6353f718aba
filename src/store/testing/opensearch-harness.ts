/**
 * Contract-suite harness for the OpenSearch store: every store gets its own index name (a random suffix
 * on `veracite-contract`), dropped after the suite. Needs OPENSEARCH_URL (and credentials, see
 * opensearch-spec.ts); docs/OPENSEARCH.md starts a local cluster.
 */
import { randomUUID } from 'node:crypto';
import type { VectorBackfillStore } from '../dense-backfill.js';
import { OpenSearchStore } from '../opensearch/opensearch-store.js';
import type { StoreHarness } from './store-contract.js';

export function openSearchHarness(url: string): StoreHarness {
  const host = new URL(url).host;
  const made: string[] = [];
  const spec = (name: string) => `opensearch${url.startsWith('http:') ? '+http' : ''}://${host}/${name}`;
  return {
    fixedVectorField: true,
    create: async () => {
      const name = `veracite-contract-${randomUUID().slice(0, 8)}`;
      made.push(name);
      // One shard: BM25 statistics are per shard, and the suite's ranking checks use a tiny corpus.
      return OpenSearchStore.open(spec(name), { shards: 1, replicas: 0 });
    },
    reopen: async (store: VectorBackfillStore) => OpenSearchStore.open((store as OpenSearchStore).spec.display.replace(/^opensearch:/, url.startsWith('http:') ? 'opensearch+http:' : 'opensearch:'), { create: false }),
    cleanup: async () => {
      for (const name of made) {
        const s = await OpenSearchStore.open(spec(name), { create: false }).catch(() => undefined);
        await s?.drop();
        await s?.close();
      }
    },
  };
}
