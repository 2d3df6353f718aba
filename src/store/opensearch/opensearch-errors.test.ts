import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { errors } from '@opensearch-project/opensearch';
import { explainOpenSearchError, isTransientSearchFailure } from './opensearch-errors.js';
import { OpenSearchStore } from './opensearch-store.js';

// The answer a 2.19 cluster gave in CI when a node was killed during a query stream: status 503,
// "all shards failed" and an empty root_cause, which the client turns into "search_phase_execution_exception: ".
const ALL_SHARDS_FAILED = { error: { root_cause: [], type: 'search_phase_execution_exception', reason: 'all shards failed', phase: 'query', grouped: true, failed_shards: [] }, status: 503 };
// A bad query fails every shard too, but with 400 and a root cause: never worth a retry.
const PARSE_ERROR = {
  error: {
    root_cause: [{ type: 'query_shard_exception', reason: 'failed to create query: For input string: "x"', index: 'fever-passages' }],
    type: 'search_phase_execution_exception',
    reason: 'all shards failed',
    phase: 'query',
    grouped: true,
    failed_shards: [{ shard: 0, index: 'fever-passages', node: 'n1', reason: { type: 'query_shard_exception', reason: 'failed to create query: For input string: "x"' } }],
  },
  status: 400,
};

function responseError(body: unknown, statusCode: number): Error {
  return new errors.ResponseError({ body, statusCode, headers: {}, meta: {} as never, warnings: null } as never);
}

describe('OpenSearch errors: what a failure says, and which are tried again', () => {
  it('names the cluster, the status and that no shard copy answered, where the client says only "search_phase_execution_exception: "', () => {
    const e = responseError(ALL_SHARDS_FAILED, 503);
    assert.equal(e.message, 'search_phase_execution_exception: ', 'the client message this replaces');
    assert.ok(isTransientSearchFailure(e));
    const line = explainOpenSearchError(e);
    assert.match(line, /^OpenSearch HTTP 503: search_phase_execution_exception: all shards failed; no shard copy answered/);
  });

  it('a bad query (400) is not transient, and its message carries the root cause and the failed shard', () => {
    const e = responseError(PARSE_ERROR, 400);
    assert.ok(!isTransientSearchFailure(e));
    const line = explainOpenSearchError(e);
    assert.match(line, /HTTP 400/);
    assert.match(line, /root cause query_shard_exception: failed to create query/);
    assert.match(line, /shard fever-passages\[0\] on node n1/);
  });

  it('connection errors are transient; a 404 is not', () => {
    assert.ok(isTransientSearchFailure(new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9201', {} as never)));
    assert.ok(!isTransientSearchFailure(responseError({ error: { type: 'index_not_found_exception', reason: 'no such index [x]' }, status: 404 }, 404)));
    assert.match(explainOpenSearchError(new Error('socket hang up')), /^OpenSearch: socket hang up$/);
  });
});

describe('OpenSearchStore reads against a loopback cluster that loses a node', () => {
  let server: ReturnType<typeof createServer>;
  let url = '';
  let searchAnswers: { status: number; body: unknown }[] = [];
  let searches = 0;
  const meta = { storeId: 'abcd1234', createdAt: '2026-12-02T00:00:00Z', writes: 3, textIndexed: true, settings: {}, checkpoints: {} };
  const hit = { _id: 'd1#0', _score: 2.5, _source: { id: 'd1#0', doc_id: 'd1', title: 'Aspirin', idx: 0, sent_start: 0, sent_end: 1, text: 'Aspirin lowers fever.' } };

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/') return send(res, 200, { version: { number: '2.19.1', distribution: 'opensearch' } });
        if (req.method === 'HEAD' && path === '/t-meta') return send(res, 200, {});
        if (path === '/t-meta/_doc/store') return send(res, 200, { _index: 't-meta', _id: 'store', found: true, _source: meta });
        if (path.endsWith('/_count')) return send(res, 200, { count: 1 });
        if (path === '/t-passages/_search') {
          searches++;
          const a = searchAnswers.shift() ?? { status: 200, body: { hits: { total: { value: 1 }, hits: [hit] } } };
          return send(res, a.status, a.body);
        }
        send(res, 404, { error: { type: 'not_found', reason: `${req.method} ${path}` }, status: 404 });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `opensearch+http://127.0.0.1:${(server.address() as AddressInfo).port}/t`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  /** A read-only store on the fake cluster, closed after `use`, with the search answers queued and the count reset. */
  async function withStore(answers: { status: number; body: unknown }[], use: (store: OpenSearchStore) => Promise<void>): Promise<void> {
    const store = await OpenSearchStore.open(url, { readOnly: true, env: {} });
    try {
      searchAnswers = answers;
      searches = 0;
      await use(store);
    } finally {
      await store.close();
    }
  }

  it('answers once the replicas take over: 503 "all shards failed" is tried again after a pause', async () => {
    // The client itself retries a 503 three times at once (maxRetries 3): all four fail, the pause lets the next try through.
    await withStore(Array.from({ length: 4 }, () => ({ status: 503, body: ALL_SHARDS_FAILED })), async (store) => {
      const hits = await store.searchText('aspirin fever', 5);
      assert.deepEqual(hits.map((h) => h.passage.id), ['d1#0']);
      assert.equal(searches, 5, 'four refused, the fifth (after the pause) answered');
    });
  });

  // HTTP 200 from the shards that answered, as the Search API gives by default (allow_partial_search_results):
  // the live node-kill fault saw one such answer hold 7 of the baseline's 10 hits.
  const PARTIAL = {
    took: 3, timed_out: false,
    _shards: { total: 2, successful: 1, skipped: 0, failed: 1, failures: [{ shard: 1, index: 't-passages', node: 'n2', reason: { type: 'node_not_connected_exception', reason: '[node-2] Node not connected' } }] },
    hits: { total: { value: 0 }, hits: [] },
  };

  it('an answer from only some shards is not returned: it is tried again, and the whole answer comes back', async () => {
    await withStore([{ status: 200, body: PARTIAL }], async (store) => {
      const hits = await store.searchText('aspirin fever', 5);
      assert.deepEqual(hits.map((h) => h.passage.id), ['d1#0'], 'the hits of the whole answer, not the partial one');
      assert.equal(searches, 2);
    });
  });

  it('answers that stay partial fail after the pauses, naming the failed shard and what to check', async () => {
    await withStore(Array.from({ length: 4 }, () => ({ status: 200, body: PARTIAL })), async (store) => {
      await assert.rejects(store.searchText('aspirin', 5), (e: Error) => {
        assert.match(e.message, /^opensearch:\/\/127\.0\.0\.1:\d+\/t: search failed \(4 tries\): OpenSearch answered from 1 of 2 shards \(1 failed: shard t-passages\[1\] on node n2: node_not_connected_exception\)/);
        assert.match(e.message, /_cluster\/health/);
        return true;
      });
      assert.equal(searches, 4);
    });
  });

  it('a bad query fails at once, naming the store, the root cause and the shard', async () => {
    await withStore([{ status: 400, body: PARSE_ERROR }], async (store) => {
      await assert.rejects(store.searchText('aspirin', 5), (e: Error) => {
        assert.match(e.message, /^opensearch:\/\/127\.0\.0\.1:\d+\/t: search failed: OpenSearch HTTP 400: .*root cause query_shard_exception/);
        return true;
      });
      assert.equal(searches, 1, 'not retried');
    });
  });
});
