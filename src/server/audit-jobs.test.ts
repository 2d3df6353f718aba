/**
 * Audit jobs over loopback: events arrive in order and end with `done`, a reconnecting client resumes
 * from Last-Event-ID, jobs survive restarts (finished ones whole, unfinished ones as interrupted, then
 * resumed by re-submitting), and shutdown is graceful, in process and on SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { JobResponse, JobCreatedResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, readSse, startTestServer, type TestIndex } from './testing/harness.js';
import { auditArticle } from './testing/sample-index.js';

let ix: TestIndex;
let n = 0;
before(async () => {
  ix = await makeTestIndex();
});
after(async () => ix.cleanup());

const article = auditArticle(6);

function start(audit: FakeAuditService, dataDir: string, opts: { shutdownGraceMs?: number } = {}): Promise<RunningServer> {
  return startTestServer(ix.index, fakeModels(), { dataDir, ...opts }, () => audit);
}

async function submit(url: string, body: unknown = { wikitext: article.wikitext, title: article.title }) {
  const res = await postJson(`${url}/v1/audits`, body);
  assert.equal(res.status, 202, await res.clone().text());
  assert.match(res.headers.get('location') ?? '', /^\/v1\/audits\//);
  return JobCreatedResponse.parse(await res.json());
}

async function getJob(url: string, id: string) {
  const res = await fetch(`${url}/v1/audits/${id}`);
  assert.equal(res.status, 200);
  return JobResponse.parse(await res.json());
}

async function waitFor(url: string, id: string, pred: (j: ReturnType<typeof JobResponse.parse>) => boolean) {
  for (;;) {
    const j = await getJob(url, id);
    if (pred(j)) return j;
    await sleep(10);
  }
}

const dataDir = () => join(ix.root, `data-${++n}`);

describe('events', () => {
  it('stream every citation in order, then done; a late client gets the replay', async () => {
    const server = await start(new FakeAuditService(40), dataDir());
    try {
      const job = await submit(server.url);
      const events = await readSse(`${server.url}${job.links.events}`);
      const kinds = events.map((e) => e.event);
      assert.equal(kinds[0], 'status');
      assert.equal(kinds.at(-1), 'done');
      const citations = events.filter((e) => e.event === 'citation');
      assert.equal(citations.length, 6);
      citations.forEach((e, i) => {
        const d = e.data as { seq: number; done: number; total: number; result: { citationId: string } };
        assert.equal(e.id, String(i + 1));
        assert.deepEqual([d.seq, d.done, d.total], [i + 1, i + 1, 6]);
      });
      assert.equal((events.at(-1)!.data as { status: string }).status, 'done');

      // after the fact: the same sequence, replayed; from Last-Event-ID 4: only 5 and 6
      const late = await readSse(`${server.url}${job.links.events}`);
      assert.deepEqual(late.filter((e) => e.event === 'citation').map((e) => e.id), ['1', '2', '3', '4', '5', '6']);
      const resumed = await readSse(`${server.url}${job.links.events}`, { headers: { 'last-event-id': '4' } });
      assert.deepEqual(resumed.filter((e) => e.event === 'citation').map((e) => e.id), ['5', '6']);
      assert.equal(resumed.at(-1)!.event, 'done');

      const final = await getJob(server.url, job.id);
      assert.equal(final.status, 'done');
      assert.equal(final.results.length, 6);
      assert.deepEqual(final.article, { title: article.title, citations: 6, uncitedClaims: 0, skippedRefs: 0 });
    } finally {
      await server.close();
    }
  });

  it('a client connecting mid-job sees no gap and no duplicate', async () => {
    const server = await start(new FakeAuditService(60), dataDir());
    try {
      const job = await submit(server.url);
      await waitFor(server.url, job.id, (j) => j.done >= 2);
      const events = await readSse(`${server.url}${job.links.events}`);
      assert.deepEqual(events.filter((e) => e.event === 'citation').map((e) => e.id), ['1', '2', '3', '4', '5', '6']);
    } finally {
      await server.close();
    }
  });

  it('a failed job ends its stream with done + failed and the error; an article without citations is done at once', async () => {
    const audit = new FakeAuditService(1);
    audit.failAt = 3;
    const server = await start(audit, dataDir());
    try {
      const job = await submit(server.url);
      const events = await readSse(`${server.url}${job.links.events}`);
      assert.equal(events.filter((e) => e.event === 'citation').length, 3);
      const done = events.at(-1)!;
      assert.equal(done.event, 'done');
      assert.equal((done.data as { status: string }).status, 'failed');
      assert.match((done.data as { error: string }).error, /scorer failed on citation 3/);

      const empty = await submit(server.url, { html: '<html><body><p>No refs here.</p></body></html>', title: 'Empty' });
      const last = (await readSse(`${server.url}${empty.links.events}`)).at(-1)!;
      assert.deepEqual([last.event, (last.data as { status: string }).status, (last.data as { total: number }).total], ['done', 'done', 0]);
    } finally {
      await server.close();
    }
  });
  it('with --fetch, a URL input goes through the SSRF guard: a loopback address fails the job', async () => {
    const server = await startTestServer(ix.index, fakeModels(), { dataDir: dataDir(), settings: { sources: { fetch: true } } }, () => new FakeAuditService(1));
    try {
      const job = await submit(server.url, { url: `${server.url}/` });
      const done = (await readSse(`${server.url}${job.links.events}`)).at(-1)!;
      assert.equal((done.data as { status: string }).status, 'failed');
      assert.match((done.data as { error: string }).error, /blocked|loopback|private|not allowed/i);
    } finally {
      await server.close();
    }
  });
});

describe('persistence', () => {
  it('keeps finished results across a restart', async () => {
    const dir = dataDir();
    const s1 = await start(new FakeAuditService(5), dir);
    const job = await submit(s1.url);
    await waitFor(s1.url, job.id, (j) => j.status === 'done');
    const before = await getJob(s1.url, job.id);
    await s1.close();

    const s2 = await start(new FakeAuditService(5), dir);
    try {
      const after = await getJob(s2.url, job.id);
      assert.deepEqual(after, before);
      const list = (await (await fetch(`${s2.url}/v1/audits`)).json()) as { jobs: { id: string }[] };
      assert.ok(list.jobs.some((j) => j.id === job.id));
    } finally {
      await s2.close();
    }
  });

  it('shutdown past the grace period saves the job as interrupted; re-submitting resumes it', async () => {
    const dir = dataDir();
    const audit = new FakeAuditService(150);
    const s1 = await start(audit, dir, { shutdownGraceMs: 100 });
    const job = await submit(s1.url);
    await waitFor(s1.url, job.id, (j) => j.done >= 2);
    await s1.close();
    const doneBefore = audit.audited.length;
    assert.ok(doneBefore >= 2 && doneBefore < 6, `audited ${doneBefore}`);

    const audit2 = new FakeAuditService(5);
    const s2 = await start(audit2, dir);
    try {
      const j = await getJob(s2.url, job.id);
      assert.equal(j.status, 'interrupted');
      assert.match(j.error ?? '', /submit the same input again/);
      assert.equal(j.results.length, doneBefore);
      // the same input again: a new job that starts from the interrupted one's results
      const again = await submit(s2.url);
      assert.equal(again.resumedFrom, job.id);
      const events = await readSse(`${s2.url}${again.links.events}`);
      assert.deepEqual(events.filter((e) => e.event === 'citation').map((e) => e.id), ['1', '2', '3', '4', '5', '6']);
      const finished = await getJob(s2.url, again.id);
      assert.equal(finished.status, 'done');
      assert.equal(finished.results.length, 6);
      assert.equal(audit2.audited.length, 6 - doneBefore, 'only the unfinished citations were audited again');
      assert.deepEqual(new Set(finished.results.map((r) => r.citationId)).size, 6);
    } finally {
      await s2.close();
    }
  });
});

const CHILD = fileURLToPath(new URL('./testing/serve-child.ts', import.meta.url));

function spawnServer(dir: string, delayMs: number, graceMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ix.index, dir, String(delayMs), String(graceMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = (async () => {
    for await (const line of createInterface({ input: child.stdout })) return (JSON.parse(line) as { url: string }).url;
    throw new Error(`child exited before listening: ${stderr}`);
  })();
  return { child, url, stderr: () => stderr };
}

async function jobFile(dir: string, id: string) {
  const job = JSON.parse(await readFile(join(dir, 'jobs', `${id}.json`), 'utf8')) as { status: string; results: unknown[]; error?: string };
  // results are appended to their own file, one JSON line per audited citation
  job.results = (await readFile(join(dir, 'jobs', `${id}.results.jsonl`), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
  return job;
}

describe('shutdown', () => {
  it('in process: stops accepting, lets the running job finish, closes the store', async () => {
    const dir = dataDir();
    const audit = new FakeAuditService(80);
    const server = await start(audit, dir, { shutdownGraceMs: 10_000 });
    const store = server.ctx.store as { close(): Promise<void> };
    let storeClosed = false;
    const realClose = store.close.bind(store);
    store.close = async () => {
      storeClosed = true;
      await realClose();
    };
    const job = await submit(server.url);
    const streamed = readSse(`${server.url}${job.links.events}`);
    await waitFor(server.url, job.id, (j) => j.done >= 1);

    const closing = server.close();
    await sleep(20);
    // new connections are refused (the socket is closed) or, on a kept-alive one, answered 503
    const refused = await fetch(`${server.url}/v1/health`).then((r) => r.status, () => 'refused');
    assert.ok(refused === 'refused' || refused === 503, String(refused));
    assert.equal(storeClosed, false, 'the store stays open while the job runs');
    await closing;
    assert.equal(storeClosed, true);
    const saved = await jobFile(dir, job.id);
    assert.equal(saved.status, 'done');
    assert.equal(saved.results.length, 6);
    const events = await streamed;
    assert.equal(events.at(-1)!.event, 'done', 'the open event stream ended with the job');
  });

  it('SIGTERM: the child finishes its running job within the grace period and exits 0', async () => {
    const dir = dataDir();
    const c = spawnServer(dir, 60, 10_000);
    const url = await c.url;
    const job = await submit(url);
    await waitFor(url, job.id, (j) => j.done >= 1);
    c.child.kill('SIGTERM');
    const [code] = (await once(c.child, 'exit')) as [number];
    assert.equal(code, 0, c.stderr());
    assert.match(c.stderr(), /SIGTERM/);
    assert.equal((await jobFile(dir, job.id)).status, 'done');
  });

  it('kill -9: the next start marks the job interrupted and keeps its finished citations', async () => {
    const dir = dataDir();
    const c = spawnServer(dir, 100, 10_000);
    const url = await c.url;
    const job = await submit(url);
    await waitFor(url, job.id, (j) => j.done >= 2);
    c.child.kill('SIGKILL');
    await once(c.child, 'exit');
    const raw = await jobFile(dir, job.id);
    assert.equal(raw.status, 'running');

    const server = await start(new FakeAuditService(5), dir);
    try {
      const j = await getJob(server.url, job.id);
      assert.equal(j.status, 'interrupted');
      // the file may lag memory by the write in flight when the kill came
      assert.ok(j.results.length >= 1 && j.results.length < 6, `${j.results.length} results`);
      const events = await readSse(`${server.url}${job.links.events}`);
      assert.equal(events.at(-1)!.event, 'done');
    } finally {
      await server.close();
    }
  });
});
