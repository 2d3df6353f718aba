/**
 * Audit job retention: finished jobs beyond the count or past the age are deleted with their input files,
 * on the running server, after a restart and on the age timer's clock; queued and running jobs never are.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { jobsToDelete } from './jobs/job-retention.js';
import type { AuditJob } from './jobs/job-types.js';
import { JobCreatedResponse, JobResponse } from './schemas.js';
import type { RunningServer } from './start.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';
import { auditArticle } from './testing/sample-index.js';

let ix: TestIndex;
before(async () => {
  ix = await makeTestIndex('veracite-retention-');
});
after(async () => ix.cleanup());

const article = auditArticle(3);

async function submit(url: string, title: string): Promise<string> {
  const res = await postJson(`${url}/v1/audits`, { wikitext: article.wikitext, title });
  assert.equal(res.status, 202, await res.clone().text());
  return JobCreatedResponse.parse(await res.json()).id;
}

async function status(url: string, id: string): Promise<string | 404> {
  const res = await fetch(`${url}/v1/audits/${id}`);
  if (res.status === 404) return 404;
  return JobResponse.parse(await res.json()).status;
}

async function waitStatus(url: string, id: string, want: string): Promise<void> {
  while ((await status(url, id)) !== want) await sleep(5);
}

function files(dir: string, id: string): boolean[] {
  return [existsSync(join(dir, 'jobs', `${id}.json`)), existsSync(join(dir, 'jobs', `${id}.input.json`))];
}

function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

describe('job retention', () => {
  it('keeps the newest --keep-jobs finished jobs, deleting older ones with their inputs; never a running or queued job', async () => {
    const dir = join(ix.root, 'count');
    const audit = new FakeAuditService(1);
    const server: RunningServer = await startTestServer(ix.index, fakeModels(), { dataDir: dir, keepJobs: 2 }, () => audit);
    try {
      const done: string[] = [];
      for (const t of ['a', 'b', 'c']) {
        const id = await submit(server.url, t);
        await waitStatus(server.url, id, 'done');
        done.push(id);
      }
      while ((await status(server.url, done[0]!)) !== 404) await sleep(5);
      assert.deepEqual(files(dir, done[0]!), [false, false], 'the oldest job and its input are gone');
      assert.deepEqual(files(dir, done[2]!), [true, true]);

      // Two more, held: one running, one queued. With 2 kept, the finished ones could make room, the others not.
      const g = gate();
      audit.gate = g.promise;
      const running = await submit(server.url, 'd');
      const queued = await submit(server.url, 'e');
      await waitStatus(server.url, running, 'running');
      assert.equal(await server.ctx.jobs.prune(), 0, 'b and c are the 2 newest finished jobs');
      // Far in the future every finished job is past the age limit; the held ones stay.
      assert.equal(await server.ctx.jobs.prune(Date.now() + 365 * 86_400_000), 2);
      assert.deepEqual([await status(server.url, running), await status(server.url, queued)], ['running', 'queued']);
      assert.deepEqual([...files(dir, running), ...files(dir, queued)], [true, true, true, true]);
      audit.gate = undefined;
      g.release();
      await waitStatus(server.url, queued, 'done');
      assert.equal(await status(server.url, running), 'done');
    } finally {
      await server.close();
    }
  });

  it('applies the age limit at start, and removes inputs whose job file is gone', async () => {
    const dir = join(ix.root, 'age');
    const audit = new FakeAuditService(1);
    let server = await startTestServer(ix.index, fakeModels(), { dataDir: dir }, () => audit);
    let old: string;
    try {
      old = await submit(server.url, 'old');
      await waitStatus(server.url, old, 'done');
    } finally {
      await server.close();
    }
    await writeFile(join(dir, 'jobs', '00000000-0000-4000-8000-000000000000.input.json'), '{"kind":"wikitext","text":"x"}');
    await sleep(30);
    server = await startTestServer(ix.index, fakeModels(), { dataDir: dir, jobMaxAgeMs: 20 }, () => audit);
    try {
      assert.equal(await status(server.url, old), 404);
      assert.deepEqual(await readdir(join(dir, 'jobs')), [], 'the old job, its input and the orphan input are gone');
    } finally {
      await server.close();
    }
  });

  it('chooses by finish time, keeps unfinished jobs whatever their age', () => {
    const day = 86_400_000;
    const now = Date.parse('2025-01-31T00:00:00Z');
    const job = (id: string, status: AuditJob['status'], daysAgo: number): AuditJob => {
      const t = new Date(now - daysAgo * day).toISOString();
      return { id, status, createdAt: t, updatedAt: t, ...(status === 'queued' || status === 'running' ? {} : { finishedAt: t }), input: { kind: 'wikitext', bytes: 1 }, inputHash: id, done: 0, total: 0, results: [] };
    };
    const jobs = [job('q', 'queued', 90), job('r', 'running', 90), job('d1', 'done', 1), job('f2', 'failed', 2), job('i3', 'interrupted', 3), job('d40', 'done', 40)];
    const ids = (js: AuditJob[]) => js.map((j) => j.id).sort();
    assert.deepEqual(ids(jobsToDelete(jobs, { keepJobs: 10, maxAgeMs: 30 * day }, now)), ['d40']);
    assert.deepEqual(ids(jobsToDelete(jobs, { keepJobs: 2, maxAgeMs: 30 * day }, now)), ['d40', 'i3']);
    assert.deepEqual(ids(jobsToDelete(jobs, { keepJobs: 0, maxAgeMs: 30 * day }, now, new Set(['d1']))), ['d40', 'f2', 'i3']);
  });
});
