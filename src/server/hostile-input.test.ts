/**
 * Hostile input (issue 35), against a server in a child process as `veracite serve` runs it: each request
 * gets a clean answer (status and message), and during each, GET /v1/health polled every 50 ms answers
 * within 200 ms. The inputs are generated here, never committed:
 *   - a 1 MB wikitext with no headings, one paragraph, every sentence cited (stalled the server ~38 s);
 *   - templates nested 10,000 deep (a stack overflow);
 *   - a 0.4 MB PDF inflating to 400 MB (1.34 GB peak, a 2 s stall);
 *   - two Host headers (answered 200 by the first);
 *   - a document over the parse time budget (refused, its worker replaced, the next document read).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { makeTestIndex, postJson, type TestIndex } from './testing/harness.js';
import { deeplyNestedWikitext, headinglessWikitext, pdfBomb } from './testing/hostile-inputs.js';

const CHILD = fileURLToPath(new URL('./testing/hostile-child.ts', import.meta.url));
const HEALTH_EVERY_MS = 50;
const HEALTH_WITHIN_MS = 200;

interface Child {
  proc: ChildProcess;
  url: string;
}

async function spawnServer(index: string, config: object): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, index, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  for await (const line of createInterface({ input: proc.stdout! })) return { proc, url: (JSON.parse(line) as { url: string }).url };
  throw new Error(`server child exited before listening: ${stderr}`);
}

async function stop(c: Child | undefined): Promise<void> {
  if (!c || c.proc.exitCode !== null) return;
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
}

/**
 * Runs `work` while polling health every 50 ms; resolves to work's result and the poll latencies. A poll
 * still unanswered when work ends is waited for (its latency counts).
 */
async function withHealthPolls<T>(url: string, work: () => Promise<T>): Promise<{ result: T; latencies: number[] }> {
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  const poll = () => {
    const t0 = performance.now();
    inFlight.push(
      fetch(`${url}/v1/health`).then(async (res) => {
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        latencies.push(performance.now() - t0);
      }),
    );
  };
  poll();
  const timer = setInterval(poll, HEALTH_EVERY_MS);
  try {
    const result = await work();
    // an answer that came at once still gets a few polls around it
    await new Promise((r) => setTimeout(r, 4 * HEALTH_EVERY_MS));
    return { result, latencies };
  } finally {
    clearInterval(timer);
    await Promise.all(inFlight);
  }
}

function assertResponsive(latencies: number[], what: string): void {
  assert.ok(latencies.length >= 3, `${what}: only ${latencies.length} health polls ran`);
  const worst = Math.max(...latencies);
  assert.ok(worst < HEALTH_WITHIN_MS, `${what}: a health poll took ${worst.toFixed(0)} ms (of ${latencies.length}, every ${HEALTH_EVERY_MS} ms)`);
}

async function errorBody(res: Response): Promise<{ error: string; message: string }> {
  return (await res.json()) as { error: string; message: string };
}

/** Two Host lines over a raw socket: Node keeps the first, so only the raw headers show the second. */
function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
  });
}

let ix: TestIndex;
let server: Child | undefined;
let tight: Child | undefined;
before(async () => {
  ix = await makeTestIndex('veracite-hostile-');
  [server, tight] = await Promise.all([
    spawnServer(ix.index, { server: { bodyLimit: 4 * 1024 * 1024 }, settings: { audit: { maxCitations: 20_000 } } }),
    // a parse time budget of 1.5 s: what a 2 MB heading-less article takes several times over
    spawnServer(ix.index, { server: { bodyLimit: 8 * 1024 * 1024 }, settings: { audit: { maxCitations: 50_000 }, parse: { timeoutMs: 1500 } } }),
  ]);
});
after(async () => {
  await Promise.all([stop(server), stop(tight)]);
  await ix.cleanup();
});

describe('hostile input: clean answers, health within 200 ms throughout', () => {
  it('a 1 MB wikitext with no headings is read (202) with every citation, and the server keeps answering', async (t) => {
    // serialised before the polls start: the test's own event loop must not be what delays them
    const body = JSON.stringify({ wikitext: headinglessWikitext(1024 * 1024), title: 'One paragraph' });
    const { result: res, latencies } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/audits`, body));
    assert.equal(res.status, 202, await res.clone().text());
    const { id } = (await res.json()) as { id: string };
    // the job reads the article parsed at submission: every ref became a citation
    let job: { article?: { citations: number } } = {};
    for (let k = 0; k < 100 && !job.article; k++) {
      job = (await (await fetch(`${server!.url}/v1/audits/${id}`)).json()) as typeof job;
      if (!job.article) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(job.article && job.article.citations > 5000, `citations read: ${job.article?.citations}`);
    assertResponsive(latencies, '1 MB heading-less article');
    t.diagnostic(`health: ${latencies.length} polls, worst ${Math.max(...latencies).toFixed(0)} ms`);
  });

  it('templates nested 10,000 deep: 422 naming the nesting limit, no stack overflow', async () => {
    const body = JSON.stringify({ wikitext: deeplyNestedWikitext(10_000) });
    const { result: res, latencies } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/audits`, body));
    assert.equal(res.status, 422);
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /nested more than 100 deep \(line 1\)/);
    assertResponsive(latencies, 'nesting 10,000 deep');
  });

  it('a PDF bomb (0.4 MB inflating to 400 MB): 413 naming the inflation limit and its flag', async (t) => {
    const bomb = await pdfBomb(400);
    t.diagnostic(`bomb: ${(bomb.length / 1024).toFixed(0)} kB`);
    const body = JSON.stringify({ claim: 'The river is long.', source: { file: { name: 'bomb.pdf', type: 'application/pdf', base64: bomb.toString('base64') } } });
    const { result: res, latencies } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/citations/check`, body));
    assert.equal(res.status, 413, await res.clone().text());
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /bomb\.pdf: the PDF's compressed streams inflate to more than 128 MB .*--pdf-inflate-limit/);
    assertResponsive(latencies, 'PDF bomb');
  });

  it('two Host headers: 400', async () => {
    const { port } = new URL(server!.url);
    const { result: answer, latencies } = await withHealthPolls(server!.url, () =>
      rawRequest(server!.url, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`),
    );
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assertResponsive(latencies, 'two Host headers');
  });

  it('over the parse time budget: 422 naming the limit and --parse-timeout; the worker is replaced and the next article is read', async () => {
    const body = JSON.stringify({ wikitext: headinglessWikitext(6 * 1024 * 1024) });
    const { result: res, latencies } = await withHealthPolls(tight!.url, () => postJson(`${tight!.url}/v1/audits`, body));
    assert.equal(res.status, 422, await res.clone().text());
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /took longer than 1\.5 s \(the limit per document\): raise it with --parse-timeout/);
    assertResponsive(latencies, 'over the time budget');
    const next = await postJson(`${tight!.url}/v1/audits`, { wikitext: 'A short article.<ref>{{cite web |url=https://example.org/x |title=X}}</ref>' });
    assert.equal(next.status, 202, await next.clone().text());
  });
});
