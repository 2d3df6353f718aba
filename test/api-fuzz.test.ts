/**
 * API fuzzing: every endpoint of the server (the route list the app registers, so a new route is fuzzed
 * without editing this file) gets requests generated from and around its zod schemas by fast-check:
 * valid bodies and queries, values at and past each bound, wrong types, dropped and unknown fields,
 * broken JSON, other content types, odd percent-encodings, unknown paths and methods. Every answer must
 * come within the timeout (no hang), never be a 500 (503/504 are documented: full queue, deadline), and
 * every 4xx must be the JSON error shape.
 *
 * The server is the real one on the shipped SciFact sample index, with the real citation audit (lexical
 * scorer) and fake verification models (instant). Runs per endpoint: VERACITE_FUZZ_RUNS (default 40).
 *   VERACITE_FUZZ_RUNS=500 node --import tsx --test test/api-fuzz.test.ts
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { z } from 'zod';
import type { ApiRoute } from '../src/server/route.js';
import { API_ROUTES } from '../src/server/routes/index.js';
import { ErrorResponse } from '../src/server/schemas.js';
import type { RunningServer } from '../src/server/start.js';
import { fakeModels } from '../src/server/testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from '../src/server/testing/harness.js';
import { auditArticle } from '../src/server/testing/sample-index.js';
import { arbitraryOf, mutatedObject, nastyString, rawBodies } from './fuzz/schema-arbitrary.js';

const RUNS = Number(process.env.VERACITE_FUZZ_RUNS ?? 40);
const TIMEOUT_MS = 15_000;
const SEED = process.env.VERACITE_FUZZ_SEED ? Number(process.env.VERACITE_FUZZ_SEED) : undefined;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
}

/** Every byte outside the unreserved set percent-encoded (lone surrogates become U+FFFD first). */
function percentEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Query pieces that are not what URLSearchParams would write. */
const rawQueryPieces = fc.constantFrom('%', '%ZZ', '%C3', '%C3%28', '%00', '&&', '==', 'q', 'q=', 'q[]=1&q[]=2', 'k=1&k=2', '__proto__=1', 'constructor[prototype][x]=1', 'q=%F0%9F%92%A5', 'mode=bm25&mode=dense', 'k=1e2', 'k=-0', 'limit=0x10');

function queryString(value: unknown, raw: string[]): string {
  const parts: string[] = [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      for (const x of Array.isArray(v) ? v : [v]) parts.push(`${percentEncode(k)}=${percentEncode(typeof x === 'string' ? x : JSON.stringify(x) ?? '')}`);
    }
  }
  parts.push(...raw);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Header values fetch accepts (visible ASCII). */
const headerText = nastyString.map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json;;', 'application/xml', '*/*') },
  { weight: 1, arbitrary: headerText },
);

/** Valid bodies a schema's keywords cannot say: an audit takes exactly one of wikitext, html, url. */
const article = auditArticle(3);
const EXTRA_BODIES: Record<string, fc.Arbitrary<unknown>> = {
  'POST /v1/audits': fc.oneof(
    fc.record({ wikitext: fc.oneof(nastyString, fc.lorem({ maxCount: 40 }), fc.constant(article.wikitext)), title: fc.option(nastyString, { nil: undefined }) }, { requiredKeys: ['wikitext'] }),
    fc.record({ html: fc.oneof(nastyString, fc.constant(`<html><body><p>${article.wikitext}</p></body></html>`), fc.constant('<p>A claim.<sup class="reference"><a href="#cite_note-1">[1]</a></sup></p><ol class="references"><li id="cite_note-1"><a href="https://example.org/x">x</a></li></ol>')) }),
  ),
};

function requestsFor(route: ApiRoute, known: { jobId: string; pairId: string }): fc.Arbitrary<FuzzRequest> {
  const d = route.doc;
  const hints = { id: fc.constant(known.jobId), job: fc.constant(known.jobId), pairId: fc.constant(known.pairId) };
  // Half valid (the success paths), half around the schema (the error paths).
  const of = (schema: z.ZodType) => {
    const json = jsonSchema(schema);
    return fc.oneof(arbitraryOf(json, { hints, strict: true }), mutatedObject(arbitraryOf(json, { hints })));
  };
  const params = d.params ? of(d.params) : fc.constant({});
  const query = d.query ? of(d.query) : fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 }), { maxKeys: 2 }), { nil: undefined });
  const extra = EXTRA_BODIES[`${d.method} ${d.path}`];
  const bodies = d.body ? (extra ? fc.oneof(of(d.body), extra) : of(d.body)) : undefined;
  const body = bodies ? fc.oneof({ weight: 5, arbitrary: bodies.map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: rawBodies }) : fc.constant(undefined);
  const extraHeaders = fc.record({ 'last-event-id': headerText, accept: fc.constantFrom('application/json', 'text/event-stream', '*/*', 'text/html') }, { requiredKeys: [] });
  return fc
    .record({ params, query, rawQuery: fc.oneof({ weight: 4, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.array(rawQueryPieces, { minLength: 1, maxLength: 2 }) }), body, contentType: contentTypes, extraHeaders })
    .map(({ params, query, rawQuery, body, contentType, extraHeaders }) => {
      const p = (params && typeof params === 'object' ? params : {}) as Json;
      const path = d.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const v = p[name];
        return percentEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
      });
      const headers: Record<string, string> = { ...(extraHeaders as Record<string, string>) };
      const req: FuzzRequest = { method: d.method, path: path + queryString(query, rawQuery), headers };
      if (d.method === 'POST') {
        headers['content-type'] = contentType;
        req.body = body ?? '';
      }
      return req;
    });
}

/** Paths and methods no route has. */
const strayRequests: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
    path: fc.oneof(
      fc.constantFrom('/v1/verify', '/v1/verify/batch', '/v1/audits', '/v1/health', '/', '/app.js', '/v1', '/v1/', '//v1/health', '/v1/health/', '/v1/../package.json', '/%2e%2e/package.json', '/v1/audits/', '/v1/audits//events', '/index.html?x=1'),
      nastyString.map((s) => `/v1/${percentEncode(s)}`),
      nastyString.map((s) => `/${percentEncode(s)}`),
    ),
  })
  .map(({ method, path }) => ({ method, path, headers: {} }));

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
}

async function send(base: string, r: FuzzRequest, tally: Tally): Promise<void> {
  const init: RequestInit = { method: r.method, headers: r.headers, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) };
  if (r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD') init.body = r.body;
  let res: Response;
  try {
    res = await fetch(base + r.path, init);
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS} ms (a hang)` : (e as Error).message;
    throw new Error(`${r.method} ${r.path}: ${why}`);
  }
  tally.requests++;
  tally.byStatus[res.status] = (tally.byStatus[res.status] ?? 0) + 1;
  // An event stream of a live job stays open: its answering is what counts here.
  const text = (res.headers.get('content-type') ?? '').startsWith('text/event-stream') ? (await res.body?.cancel(), '') : await res.text();
  assert.ok(res.status < 500 || res.status === 503 || res.status === 504, `${r.method} ${r.path} -> ${res.status}: ${text.slice(0, 500)}\nbody: ${r.body?.slice(0, 300)}`);
  if (res.status >= 400 && r.method !== 'HEAD') {
    const parsed = ErrorResponse.safeParse(JSON.parse(text));
    assert.ok(parsed.success, `${r.method} ${r.path} -> ${res.status} without the JSON error shape: ${text.slice(0, 300)}`);
  }
}

describe('API fuzzing (fast-check)', () => {
  let ix: TestIndex;
  let server: RunningServer;
  const known = { jobId: '', pairId: '' };
  const tallies = new Map<string, Tally>();

  before(async () => {
    ix = await makeTestIndex('veracite-fuzz-');
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'server'), shutdownGraceMs: 200, requestTimeoutMs: 10_000 });
    // A finished job and one of its comparison pairs, so generated requests also reach the success paths.
    const art = auditArticle(4);
    const created = (await (await postJson(`${server.url}/v1/audits`, art)).json()) as { id: string };
    known.jobId = created.id;
    while (((await (await fetch(`${server.url}/v1/audits/${created.id}`)).json()) as { status: string }).status !== 'done') await sleep(20);
    known.pairId = ((await (await fetch(`${server.url}/v1/comparisons/next?job=${created.id}`)).json()) as { pairId: string }).pairId;
    assert.ok(known.pairId);
  });

  after(async () => {
    const total = [...tallies.values()].reduce((a, t) => a + t.requests, 0);
    const byStatus: Record<string, number> = {};
    for (const t of tallies.values()) for (const [s, n] of Object.entries(t.byStatus)) byStatus[s] = (byStatus[s] ?? 0) + n;
    console.log(`api fuzz: ${total} requests, ${tallies.size} targets (${RUNS} runs each), statuses ${JSON.stringify(byStatus)}`);
    for (const [name, t] of tallies) console.log(`  ${name}: ${JSON.stringify(t.byStatus)}`);
    await server?.close();
    await ix?.cleanup();
  });

  const targets: [string, (k: typeof known) => fc.Arbitrary<FuzzRequest>][] = [
    ...API_ROUTES.map((r): [string, (k: typeof known) => fc.Arbitrary<FuzzRequest>] => [`${r.doc.method} ${r.doc.path}`, (k) => requestsFor(r, k)]),
    ['stray paths and methods', () => strayRequests],
  ];

  for (const [name, arb] of targets) {
    it(`${name}: no 500, no hang, JSON errors`, async () => {
      const tally: Tally = { requests: 0, byStatus: {} };
      tallies.set(name, tally);
      await fc.assert(
        fc.asyncProperty(arb(known), (r) => send(server.url, r, tally)),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
      assert.equal(tally.requests, RUNS);
    });
  }

  it('the server is healthy afterwards', async () => {
    const res = await fetch(`${server.url}/v1/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(server.ctx.limiter.stats().active, 0);
  });
});
