/**
 * Hostile input (issue 35), against a server in a child process as `veracite serve` runs it: each request
 * gets a clean answer (status and message), and during each, GET /v1/health polled every 50 ms answers
 * within 200 ms more than a control does: an idle HTTP server in its own process (plain node:http), polled at
 * the same moments by the same test process. The control takes out what is the machine's and not the server's
 * (the suite runs files side by side, and a shared machine can hold any process for a few hundred ms); a
 * server that parses on its event loop stalls for seconds while the control keeps answering in milliseconds.
 * The inputs are generated here, never committed:
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

/** The control: an idle HTTP server in its own process that answers every request at once (no tsx, no app). */
async function spawnControl(): Promise<Child> {
  const code = "const s = require('node:http').createServer((q, r) => r.end('{}')).listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + s.address().port })));";
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: proc.stdout! })) return { proc, url: (JSON.parse(line) as { url: string }).url };
  throw new Error('control server exited before listening');
}

async function stop(c: Child | undefined): Promise<void> {
  if (!c || c.proc.exitCode !== null) return;
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
}

/**
 * Runs `work` while polling health every 50 ms on `url` and, at the same moments, on the idle control;
 * resolves to work's result and both sets of latencies. A poll still unanswered when work
 * ends is waited for (its latency counts).
 */
async function withHealthPolls<T>(url: string, work: () => Promise<T>): Promise<{ result: T; latencies: number[]; control: number[] }> {
  const latencies: number[] = [];
  const controlLatencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  const pollOne = (base: string, into: number[]) => {
    const t0 = performance.now();
    inFlight.push(
      fetch(`${base}/v1/health`).then(async (res) => {
        await res.arrayBuffer();
        assert.equal(res.status, 200);
        into.push(performance.now() - t0);
      }),
    );
  };
  const poll = () => {
    pollOne(url, latencies);
    pollOne(control!.url, controlLatencies);
  };
  poll();
  const timer = setInterval(poll, HEALTH_EVERY_MS);
  try {
    const result = await work();
    // an answer that came at once still gets a few polls around it
    await new Promise((r) => setTimeout(r, 4 * HEALTH_EVERY_MS));
    return { result, latencies, control: controlLatencies };
  } finally {
    clearInterval(timer);
    await Promise.all(inFlight);
  }
}

/** The worst health poll stays within HEALTH_WITHIN_MS of the idle control's worst, polled at the same moments. */
function assertResponsive(polls: { latencies: number[]; control: number[] }, what: string): void {
  const { latencies } = polls;
  assert.ok(latencies.length >= 3, `${what}: only ${latencies.length} health polls ran`);
  const worst = Math.max(...latencies);
  const controlWorst = Math.max(...polls.control);
  assert.ok(
    worst < HEALTH_WITHIN_MS + controlWorst,
    `${what}: a health poll took ${worst.toFixed(0)} ms (of ${latencies.length}, every ${HEALTH_EVERY_MS} ms), over ${HEALTH_WITHIN_MS} ms more than the idle control's worst (${controlWorst.toFixed(0)} ms)`,
  );
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
let control: Child | undefined;
before(async () => {
  ix = await makeTestIndex('veracite-hostile-');
  [server, tight, control] = await Promise.all([
    spawnServer(ix.index, { server: { bodyLimit: 4 * 1024 * 1024 }, settings: { audit: { maxCitations: 20_000 } } }),
    // a parse time budget of 1.5 s: what a 2 MB heading-less article takes several times over
    spawnServer(ix.index, { server: { bodyLimit: 8 * 1024 * 1024 }, settings: { audit: { maxCitations: 50_000 }, parse: { timeoutMs: 1500 } } }),
    spawnControl(),
  ]);
  // The first fetch of a process loads its HTTP client (100 ms idle, several times that on a loaded machine):
  // done here, so that no health poll measures it.
  await Promise.all([server, tight, control].map(async (c) => (await fetch(`${c!.url}/v1/health`)).arrayBuffer()));
});
after(async () => {
  await Promise.all([stop(server), stop(tight), stop(control)]);
  await ix.cleanup();
});

describe('hostile input: clean answers, health within 200 ms throughout', () => {
  it('a 1 MB wikitext with no headings is read (202) with every citation, and the server keeps answering', async (t) => {
    // serialised before the polls start: the test's own event loop must not be what delays them
    const body = JSON.stringify({ wikitext: headinglessWikitext(1024 * 1024), title: 'One paragraph' });
    const { result: res, ...polls } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/audits`, body));
    assert.equal(res.status, 202, await res.clone().text());
    const { id } = (await res.json()) as { id: string };
    // the job reads the article parsed at submission: every ref became a citation
    let job: { article?: { citations: number } } = {};
    for (let k = 0; k < 100 && !job.article; k++) {
      job = (await (await fetch(`${server!.url}/v1/audits/${id}`)).json()) as typeof job;
      if (!job.article) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(job.article && job.article.citations > 5000, `citations read: ${job.article?.citations}`);
    assertResponsive(polls, '1 MB heading-less article');
    t.diagnostic(`health: ${polls.latencies.length} polls, worst ${Math.max(...polls.latencies).toFixed(0)} ms (idle control: worst ${Math.max(...polls.control).toFixed(0)} ms)`);
  });

  it('templates nested 10,000 deep: 422 naming the nesting limit, no stack overflow', async () => {
    const body = JSON.stringify({ wikitext: deeplyNestedWikitext(10_000) });
    const { result: res, ...polls } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/audits`, body));
    assert.equal(res.status, 422);
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /nested more than 100 deep \(line 1\)/);
    assertResponsive(polls, 'nesting 10,000 deep');
  });

  it('a PDF bomb (0.4 MB inflating to 400 MB): 413 naming the inflation limit and its flag', async (t) => {
    const bomb = await pdfBomb(400);
    t.diagnostic(`bomb: ${(bomb.length / 1024).toFixed(0)} kB`);
    const body = JSON.stringify({ claim: 'The river is long.', source: { file: { name: 'bomb.pdf', type: 'application/pdf', base64: bomb.toString('base64') } } });
    const { result: res, ...polls } = await withHealthPolls(server!.url, () => postJson(`${server!.url}/v1/citations/check`, body));
    assert.equal(res.status, 413, await res.clone().text());
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /bomb\.pdf: the PDF's compressed streams inflate to more than 128 MB .*--pdf-inflate-limit/);
    assertResponsive(polls, 'PDF bomb');
  });

  it('two Host headers: 400', async () => {
    const { port } = new URL(server!.url);
    const { result: answer, ...polls } = await withHealthPolls(server!.url, () =>
      rawRequest(server!.url, `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`),
    );
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assertResponsive(polls, 'two Host headers');
  });

  it('over the parse time budget: 422 naming the limit and --parse-timeout; the worker is replaced and the next article is read', async () => {
    const body = JSON.stringify({ wikitext: headinglessWikitext(6 * 1024 * 1024) });
    const { result: res, ...polls } = await withHealthPolls(tight!.url, () => postJson(`${tight!.url}/v1/audits`, body));
    assert.equal(res.status, 422, await res.clone().text());
    const err = await errorBody(res);
    assert.equal(err.error, 'document_over_budget');
    assert.match(err.message, /took longer than 1\.5 s \(the limit per document\): raise it with --parse-timeout/);
    assertResponsive(polls, 'over the time budget');
    const next = await postJson(`${tight!.url}/v1/audits`, { wikitext: 'A short article.<ref>{{cite web |url=https://example.org/x |title=X}}</ref>' });
    assert.equal(next.status, 202, await next.clone().text());
  });
});

/**
 * Hostile search answers (issue 44): a loopback "API" whose every answer is an attack: an OpenAlex work whose
 * abstract_inverted_index puts a word at position 4294967294 (a 150-byte answer that kept a server busy for
 * over 30 s), a Crossref answer of the wrong types around a 150 KB run of `<`
 * (quadratic for /<[^>]+>/g: 10 s each), a Europe PMC answer with no result list, HTML where JSON was
 * expected. Each is its provider's named failure (the index searched alongside still answers: a server's
 * claim is "could not check" only without one, as on the command line), and health keeps answering every
 * poll while the server reads them. Markup in valid answers is stripped in linear time (search-rules.test.ts);
 * the verification that follows valid answers runs on the event loop as an index's does (not measured here).
 * Not yet: a 700 KB answer of 40,000 distinct words is refused by name (search-rules.test.ts), but its
 * JSON.parse and collection still hold this loop ~400 ms on a loaded machine: answers are not parsed in a worker.
 */
describe('hostile search answers: named provider failures, health within 200 ms throughout', () => {
  let apis: import('node:http').Server | undefined;
  let searching: Child | undefined;
  after(async () => {
    await stop(searching);
    apis?.close();
  });

  it('POST /v1/verify with search: each provider\'s failure named, no source from them', async () => {
    const { createServer } = await import('node:http');
    const lt = '<'.repeat(150_000);
    const answers: Record<string, string> = {
      openalex: JSON.stringify({ results: [{ id: 'https://openalex.org/W1', title: 'Born', abstract_inverted_index: { born: [4294967294] } }] }),
      crossref: JSON.stringify({ status: 'ok', message: { items: [{ DOI: 10.5555, title: [lt], abstract: { text: lt } }] } }),
      europepmc: JSON.stringify({ resultList: null, abstractText: lt }),
    };
    // benign: each API's documented empty answer (the same request, nothing found): the baseline.
    const empty: Record<string, string> = { openalex: '{"meta":{"count":0},"results":[]}', crossref: '{"status":"ok","message":{"items":[]}}', europepmc: '{"hitCount":0,"resultList":{"result":[]}}', wikipedia: '{"batchcomplete":true,"query":{"search":[]}}' };
    let benign = true;
    apis = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const provider = u.pathname.split('/')[1] ?? '';
      if (benign) return res.writeHead(200, { 'content-type': 'application/json' }).end(empty[provider] ?? '{}');
      if (provider === 'wikipedia') return res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body>${lt}</body></html>`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answers[provider] ?? '{}');
    });
    await new Promise<void>((r) => apis!.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(apis.address() as import('node:net').AddressInfo).port}`;
    const bases = Object.fromEntries(['openalex', 'crossref', 'europepmc', 'wikipedia'].map((p) => [p, `${origin}/${p}`]));
    searching = await spawnServer(ix.index, { settings: { sources: { apis: bases, apiIntervalMs: 0, cache: `${ix.index}-search-cache` }, search: { maxQueries: 4 } } });
    await (await fetch(`${searching.url}/v1/health`)).arrayBuffer();
    const verify = (claim: string) => postJson(`${searching!.url}/v1/verify`, JSON.stringify({ claim, search: ['openalex', 'crossref', 'europepmc', 'wikipedia'] }));
    // First verifications (benign, then hostile) load what any claim's verification loads (the claim tagger:
    // hundreds of ms) and compile the answer checks once (a one-time cost, measured at ~1 s on this loaded
    // machine, not per answer); then
    // the same request with benign answers is the baseline: the verification of a claim (on the event loop,
    // as an index's is) stalls health by itself, on a loaded machine by hundreds of ms. The hostile answers
    // may add at most HEALTH_WITHIN_MS to it. Words the sample index does not hold; new words each time, so
    // that nothing comes from the cache.
    await (await verify('Qwimble droxes farnicated the yelvish torps.')).arrayBuffer();
    benign = false;
    await (await verify('Snorfel gapwinds crenulated the tibbits.')).arrayBuffer();
    benign = true;
    const { result: calm, ...baseline } = await withHealthPolls(searching.url, () => verify('Plonkish vardles crumbed the wenzel of Ostrava.'));
    assert.equal(calm.status, 200);
    benign = false;
    const { result: res, ...polls } = await withHealthPolls(searching.url, () => verify('Zorvex quillaps brindled the marrowsnacks of Ulvenheim.'));
    assert.equal(res.status, 200, await res.clone().text());
    const v = (await res.json()) as { search: { failures: { provider: string; message: string }[]; sources: unknown[] } };
    const failed = Object.fromEntries(v.search.failures.map((f) => [f.provider, f.message]));
    assert.deepEqual(v.search.sources, []);
    assert.match(failed.openalex ?? '', /^OpenAlex search: malformed answer: results\.0\.abstract_inverted_index\.born\.0: a word position past the 20000 words/);
    assert.match(failed.crossref ?? '', /^Crossref search: malformed answer: message\.items\.0\.DOI: /);
    assert.match(failed.europepmc ?? '', /^Europe PMC search: malformed answer: resultList: /);
    assert.match(failed.wikipedia ?? '', /^Wikipedia search: 127\.0\.0\.1:\d+ answered an HTML page where JSON was expected/);
    assertResponsive({ latencies: polls.latencies, control: [...polls.control, ...baseline.latencies] }, 'hostile search answers (against the same request with benign answers)');
  });
});
