/**
 * Faults on the live cluster: one node killed (SIGKILL, by the pid `npm run opensearch:start` recorded)
 * during a query stream and during an ingest. Queries must keep answering from the replicas (or fail
 * with a message that says what happened); the ingest must finish, resuming from its checkpoint if a
 * batch failed, with every document and passage there exactly once (ids counted and compared); the node
 * is restarted with `cluster.mjs start` and the cluster goes green again.
 *
 * It kills a node, so it must not share the cluster with other tests: not a *.test.ts file (npm test does
 * not pick it up). .ci/run runs it on its own before npm test:
 *   node --import tsx --test --test-reporter=spec src/store/opensearch/faults/node-kill.faults.ts
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { chunkPassages } from '../../../corpus/passages.js';
import { ingestSource } from '../../ingest.js';
import { OpenSearchStore } from '../opensearch-store.js';

const URL_ = process.env.OPENSEARCH_URL;
if (!URL_ && process.env.VERACITE_REQUIRE_OPENSEARCH === '1') throw new Error('VERACITE_REQUIRE_OPENSEARCH=1 but OPENSEARCH_URL is not set');
const skip = URL_ ? false : 'OPENSEARCH_URL is not set (npm run opensearch:start)';
const CLUSTER = 'scripts/opensearch/cluster.mjs';
const SAMPLE = 'data/samples/scifact/corpus.jsonl';

interface NodeState {
  name: string;
  pid?: number;
  httpPort: number;
}

const port = URL_ ? Number(new URL(URL_).port || 9200) : 9200;

function cluster(...args: string[]): string {
  return execFileSync(process.execPath, [CLUSTER, ...args, '--port', String(port)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
}

function nodes(): NodeState[] {
  const dir = cluster('where').trim();
  return (JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as { nodes: NodeState[] }).nodes;
}

async function json<T>(url: string): Promise<T> {
  const r = await fetch(url, { signal: AbortSignal.timeout(150_000) });
  return (await r.json()) as T;
}

/** The elected cluster manager stays up: the client talks to it and the other node is killed. */
async function roles(): Promise<{ manager: NodeState; victim: NodeState }> {
  const all = nodes();
  assert.ok(all.length >= 2, `the cluster has ${all.length} node(s); the fault tests need 2 or more`);
  // Asked of every node in turn: the one at OPENSEARCH_URL may be the one killed last time.
  let m: { node: string } | undefined;
  for (const n of all) {
    m = (await json<{ node: string }[]>(`http://127.0.0.1:${n.httpPort}/_cat/cluster_manager?format=json`).catch(() => []))[0];
    if (m) break;
  }
  assert.ok(m, 'no node answers with the elected cluster manager');
  const manager = all.find((n) => n.name === m.node)!;
  return { manager, victim: all.find((n) => n !== manager)! };
}

async function waitGreen(at: number, what: string): Promise<void> {
  const h = await json<{ status: string; number_of_nodes: number }>(`http://127.0.0.1:${at}/_cluster/health?wait_for_status=green&wait_for_no_relocating_shards=true&timeout=120s`);
  assert.equal(h.status, 'green', `${what}: cluster ${h.status} with ${h.number_of_nodes} nodes`);
}

function kill(n: NodeState): void {
  assert.ok(n.pid, `${n.name} has no pid in cluster.json`);
  process.kill(n.pid, 'SIGKILL');
}

async function restart(manager: NodeState, what: string): Promise<void> {
  const out = cluster('start');
  assert.match(out, /OPENSEARCH_URL=http:\/\/127\.0\.0\.1:\d+\n?$/);
  await waitGreen(manager.httpPort, what);
}

function sampleCounts(): { documents: number; passageIds: string[] } {
  const lines = readFileSync(SAMPLE, 'utf8').split('\n').filter((l) => l.trim());
  const passageIds = lines.flatMap((l) => {
    const r = JSON.parse(l) as { doc_id: number; title: string; abstract: string[] };
    return chunkPassages({ id: String(r.doc_id), title: r.title, sentences: r.abstract }).map((p) => p.id);
  });
  return { documents: lines.length, passageIds };
}

/** Every passage _id in the index (the sample has under 10,000). */
async function passageIds(at: number, name: string): Promise<string[]> {
  await fetch(`http://127.0.0.1:${at}/${name}-passages/_refresh`, { method: 'POST' });
  const r = await json<{ hits: { hits: { _id: string }[] } }>(`http://127.0.0.1:${at}/${name}-passages/_search?size=10000&_source=false&track_total_hits=true`);
  return r.hits.hits.map((h) => h._id);
}

describe('OpenSearch: one node killed during a query stream and an ingest', { skip }, () => {
  const made: string[] = [];
  let manager: NodeState;
  let victim: NodeState;
  let ingestName: string;
  const expected = sampleCounts();

  before(async () => {
    ({ manager, victim } = await roles());
    await waitGreen(manager.httpPort, 'before the fault tests');
  });

  after(async () => {
    for (const name of made) await fetch(`http://127.0.0.1:${manager.httpPort}/${name}-passages,${name}-documents,${name}-meta?ignore_unavailable=true`, { method: 'DELETE' }).catch(() => undefined);
  });

  it('queries keep answering from the replicas with the same hits; the ingest finishes, resuming from its checkpoint, every id once', async () => {
    const at = (name: string) => `opensearch+http://127.0.0.1:${manager.httpPort}/${name}`;
    const queryName = `veracite-fault-q-${randomUUID().slice(0, 8)}`;
    ingestName = `veracite-fault-i-${randomUUID().slice(0, 8)}`;
    made.push(queryName, ingestName);
    // Two primaries and one replica each: every shard has a copy on both nodes. The client talks to the
    // elected cluster manager; the other node is killed.
    const queries = await OpenSearchStore.open(at(queryName), { shards: 2, replicas: 1 });
    let store = await OpenSearchStore.open(at(ingestName), { shards: 2, replicas: 1 });
    let killed = false as boolean;
    try {
      await ingestSource(queries, SAMPLE, { format: 'scifact', batchSize: 500 });
      await waitGreen(manager.httpPort, 'replicas allocated');
      const claims = readFileSync('data/samples/scifact/claims_dev.jsonl', 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { claim: string }).claim).slice(0, 40);
      const baseline = new Map<string, string[]>();
      for (const c of claims) baseline.set(c, (await queries.searchText(c, 10)).map((h) => h.passage.id));

      // The ingest, in batches of 100 documents with a checkpoint after each. After the second batch the
      // node dies, and so does the ingest (aborted there, as if its process had died with the node); a
      // new handle resumes from the checkpoint, as the next process would. A batch the cluster fails is
      // retried the same way.
      const errors: string[] = [];
      let runs = 0;
      let resumedFrom = 0;
      const stop = new AbortController();
      const ingest = (async () => {
        for (; runs < 4; runs++) {
          try {
            const summary = await ingestSource(store, SAMPLE, {
              format: 'scifact',
              batchSize: 100,
              signal: runs === 0 ? stop.signal : undefined,
              onProgress: (p) => {
                if (!killed && p.documents >= 200) {
                  killed = true;
                  kill(victim);
                  stop.abort();
                }
              },
            });
            resumedFrom = summary.resumedFrom;
            if (!summary.interrupted) return;
            await store.close();
            store = await OpenSearchStore.open(at(ingestName), { create: false });
          } catch (e) {
            errors.push((e as Error).message);
            await store.close();
            store = await OpenSearchStore.open(at(ingestName), { create: false });
          }
        }
      })();

      // The query stream, beside the ingest: until the ingest is done and 40 queries ran after the kill.
      let answered = 0;
      let afterKill = 0;
      const failures: string[] = [];
      let done = false;
      void ingest.finally(() => (done = true));
      for (let i = 0; !(done && afterKill >= claims.length); i++) {
        const c = claims[i % claims.length]!;
        const wasKilled = killed;
        try {
          const ids = (await queries.searchText(c, 10)).map((h) => h.passage.id);
          // BM25 statistics are per shard copy; with no deletes, primaries and replicas hold the same terms.
          assert.deepEqual(ids, baseline.get(c), `query ${i}${wasKilled ? ' after the kill' : ''}`);
          answered++;
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          failures.push((e as Error).message);
        }
        if (wasKilled) afterKill++;
      }
      await ingest;
      assert.ok(killed, 'the node was killed during the ingest');
      const health = await json<{ status: string; number_of_nodes: number }>(`http://127.0.0.1:${manager.httpPort}/_cluster/health/veracite-fault-*`);
      console.log(`query stream: ${answered} answered with the baseline hits (${afterKill} after the kill), ${failures.length} failed${failures.length ? `: ${failures.slice(0, 2).join(' | ')}` : ''}`);
      console.log(`ingest: ${runs + 1} run(s)${resumedFrom ? `, the last resumed after record ${resumedFrom}` : ''}${errors.length ? `; failures: ${errors.map((m) => m.slice(0, 200)).join(' | ')}` : ''}; stores ${health.status} with ${health.number_of_nodes} node(s)`);
      for (const f of failures) assert.match(f, /OpenSearch|node|shard|connect/i, `a failure says what failed: ${f}`);
      assert.ok(failures.length <= 2, `${failures.length} queries failed: ${failures.slice(0, 3).join('; ')}`);
      assert.ok(runs > 0 && resumedFrom >= 200, `the re-run resumed from the checkpoint (record ${resumedFrom}), not from the start`);
      assert.notEqual(health.status, 'red', 'no shard of these stores lost: replicas were promoted');

      const stats = await store.stats();
      assert.equal(stats.documents, expected.documents, 'documents');
      assert.equal(stats.passages, expected.passageIds.length, 'passages');
      const ids = await passageIds(manager.httpPort, ingestName);
      assert.equal(ids.length, new Set(ids).size, 'no passage twice');
      assert.deepEqual([...ids].sort(), [...expected.passageIds].sort(), 'the same passage ids as the source');
      assert.equal(await store.getCheckpoint(`scifact:${resolve(SAMPLE)}`), undefined, 'a finished ingest leaves no checkpoint');
    } finally {
      await queries.close();
      await store.close();
      if (!killed) kill(victim); // keeps the next test meaningful even if this one failed early
    }
  });

  it('the killed node restarts with cluster.mjs start, the cluster goes green, every passage still once', async () => {
    await restart(manager, 'after restarting the killed node');
    const ids = await passageIds(manager.httpPort, ingestName);
    assert.equal(ids.length, expected.passageIds.length);
    assert.equal(new Set(ids).size, expected.passageIds.length);
    const shards = await json<{ node: string | null; state: string }[]>(`http://127.0.0.1:${manager.httpPort}/_cat/shards/${ingestName}-passages?format=json`);
    assert.deepEqual(new Set(shards.map((s) => s.node)), new Set([manager.name, victim.name]), 'copies on both nodes again');
    assert.ok(shards.every((s) => s.state === 'STARTED'));
  });
});
