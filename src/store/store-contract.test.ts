/**
 * The Store contract suite against every engine: in-memory and LanceDB always; OpenSearch when
 * OPENSEARCH_URL is set (`npm run opensearch:start`, as .ci/run does, or the docker-compose.yml cluster),
 * otherwise reported as skipped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LanceStore } from './lancedb-store.js';
import { MemoryStore } from './memory/memory-store.js';
import { openSearchHarness } from './testing/opensearch-harness.js';
import { describeStoreContract } from './testing/store-contract.js';

describeStoreContract('memory', { create: async () => new MemoryStore() });

const dirs: string[] = [];
describeStoreContract('lancedb', {
  create: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-contract-'));
    dirs.push(dir);
    return LanceStore.open(join(dir, 'idx'));
  },
  reopen: async (store) => LanceStore.open((store as LanceStore).dir, { create: false }),
  cleanup: async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  },
});

// CI (.ci/run) starts a cluster and sets VERACITE_REQUIRE_OPENSEARCH=1: there a missing URL fails, never skips.
if (!process.env.OPENSEARCH_URL && process.env.VERACITE_REQUIRE_OPENSEARCH === '1') {
  throw new Error('VERACITE_REQUIRE_OPENSEARCH=1 but OPENSEARCH_URL is not set: start a cluster with npm run opensearch:start');
}
describeStoreContract('opensearch', process.env.OPENSEARCH_URL ? openSearchHarness(process.env.OPENSEARCH_URL) : { skip: 'OPENSEARCH_URL is not set (npm run opensearch:start, then export the URL it prints; docs/OPENSEARCH.md)' });
