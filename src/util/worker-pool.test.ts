/**
 * The worker pool's budgets: a task past its time or its worker's heap is refused with a BudgetError that
 * names the limit and the flag, its worker is replaced, and the next task runs; a task's own error comes
 * back with its name; the calling thread keeps turning while a worker computes; a process whose last
 * work is closing the pool waits for it even when an answer arrives while its worker is being stopped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { after, describe, it } from 'node:test';
import { BudgetError, WorkerPool, WorkerTaskError } from './worker-pool.js';

// A plain-JS worker (no TypeScript loader needed): the tasks the tests ask for.
const WORKER = `
const { parentPort } = require('node:worker_threads');
const handlers = {
  echo: (x) => x,
  spin: (ms) => { const end = Date.now() + ms; while (Date.now() < end); return ms; },
  hog: () => { const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random())); },
  fail: () => { const e = new Error('nested too deep'); e.name = 'WikitextLimitError'; throw e; },
};
parentPort.on('message', async (m) => {
  try { parentPort.postMessage({ id: m.id, ok: true, result: await handlers[m.task](m.payload) }); }
  catch (e) { parentPort.postMessage({ id: m.id, ok: false, error: { name: e.name, message: e.message } }); }
});
parentPort.postMessage({ ready: true });
`;

const pools: WorkerPool[] = [];
function pool(timeMs: number, heapMb = 64): WorkerPool {
  const p = new WorkerPool({
    start: (resourceLimits) => new Worker(WORKER, { eval: true, resourceLimits }),
    size: 1,
    budget: { timeMs, heapMb },
    flags: { time: '--parse-timeout SECONDS', memory: '--parse-memory MB' },
    what: 'reading the document',
  });
  pools.push(p);
  return p;
}
after(async () => Promise.all(pools.map((p) => p.close())));

describe('worker pool', () => {
  it('runs tasks and returns their results', async () => {
    const p = pool(5000);
    assert.deepEqual(await p.run('echo', { a: [1, 2] }), { a: [1, 2] });
  });

  it('a task past its time is refused naming the limit and flag; the worker is replaced and the next task runs', async () => {
    const p = pool(300);
    await assert.rejects(p.run('spin', 5000), (e: Error) => {
      assert.ok(e instanceof BudgetError);
      assert.equal(e.limit, 'time');
      assert.match(e.message, /^reading the document took longer than 0\.3 s \(the limit per document\): raise it with --parse-timeout SECONDS/);
      return true;
    });
    assert.equal(await p.run('echo', 'next'), 'next');
  });

  it('a task past its worker heap is refused as a memory budget, and the pool goes on', async () => {
    const p = pool(60_000, 32);
    await assert.rejects(p.run('hog', null), (e: Error) => e instanceof BudgetError && e.limit === 'memory' && /more than 32 MB of memory.*--parse-memory MB/.test(e.message));
    assert.equal(await p.run('echo', 1), 1);
  });

  it("a task's own error keeps its name and message", async () => {
    const p = pool(5000);
    await assert.rejects(p.run('fail', null), (e: Error) => e instanceof WorkerTaskError && e.name === 'WikitextLimitError' && e.message === 'nested too deep');
  });

  it('the calling thread keeps turning while a worker computes', async () => {
    const p = pool(5000);
    await p.run('echo', 0); // started
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    await p.run('spin', 300);
    running = false;
    assert.ok(turns > 20, `${turns} event-loop turns during 300 ms of work in the worker`);
  });

  it('close() keeps the process alive until its workers stop, even when an answer arrives while one is being stopped', () => {
    // The race behind the flaky multistream test (issue 45): the worker posts its answer just before
    // close() terminates it, then takes a while to stop (here: 1 s in a child process it waits for).
    // The pool must settle the task as closed and not unref the stopping worker, or the event loop
    // ends with close() pending: exit 13 and no "closed" line. Shared memory orders the steps exactly.
    const script = `
import { Worker } from 'node:worker_threads';
import { WorkerPool } from ${JSON.stringify(new URL('./worker-pool.ts', import.meta.url).href)};
const WORKER = \`
const { parentPort, workerData } = require('node:worker_threads');
const step = new Int32Array(workerData);
parentPort.on('message', (m) => {
  if (m.payload !== 'late') return parentPort.postMessage({ id: m.id, ok: true, result: m.payload });
  Atomics.store(step, 0, 1);
  Atomics.wait(step, 0, 1);
  parentPort.postMessage({ id: m.id, ok: true, result: 'late' });
  Atomics.store(step, 0, 3);
  Atomics.notify(step, 0);
  require('node:child_process').execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 1000)']);
});
parentPort.postMessage({ ready: true });
\`;
const shared = new SharedArrayBuffer(4);
const step = new Int32Array(shared);
const pool = new WorkerPool({ start: (resourceLimits) => new Worker(WORKER, { eval: true, execArgv: [], resourceLimits, workerData: shared }), size: 1, budget: { timeMs: 60000, heapMb: 64 }, flags: { time: 't', memory: 'm' }, what: 'the task' });
await pool.run('echo', 0);
const late = pool.run('echo', 'late').then((v) => 'resolved ' + v, (e) => 'rejected: ' + e.message);
while (Atomics.load(step, 0) !== 1) await new Promise((r) => setImmediate(r));
Atomics.store(step, 0, 2);
Atomics.notify(step, 0);
Atomics.wait(step, 0, 2, 10000); // the answer is now posted, and not yet read by this thread
await pool.close();
console.log(await late);
console.log('closed');
`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `exit ${r.status}: ${r.stdout}${r.stderr}`);
    assert.deepEqual(r.stdout.trim().split('\n'), ['rejected: the task: the worker pool is closed', 'closed']);
  });
});
