/**
 * A small pool of worker threads that run one task at a time each, under a budget: a task that runs past
 * its time or past the worker's heap limit is refused with a BudgetError, its worker is terminated and a
 * fresh one takes its place. The calling thread only posts messages and waits: untrusted input (a hostile
 * article, a PDF bomb) can cost a worker, never the event loop.
 *
 * Workers start lazily, are kept for the next task (starting one costs ~100-300 ms: loading the parsers),
 * and are unref'd while idle so that a CLI process exits when its work is done.
 *
 * Closing settles every task first, then terminates: a worker being terminated is held (ref'd) by
 * terminate() until it has stopped, and nothing may unref it after that. An answer that was on its way
 * when close() began used to finish its task normally, unref'ing a worker that was still stopping; with
 * nothing else pending the event loop then ended with close() unsettled (a test cancelled with "Promise
 * resolution is still pending", a CLI exiting 13 without its error message).
 */
import type { Worker } from 'node:worker_threads';

export interface WorkerBudget {
  /** Wall-clock time one task may take, ms. */
  timeMs: number;
  /** Heap of one worker (V8 old generation), MB. */
  heapMb: number;
}

/** What the message says to raise a limit ("--parse-timeout" ...); empty: the message names no way to. */
export interface BudgetFlags {
  time: string;
  memory: string;
}

/** A task over its budget: `limit` names which, `message` the figure and the flag that raises it. */
export class BudgetError extends Error {
  constructor(
    readonly limit: 'time' | 'memory',
    message: string,
  ) {
    super(message);
    this.name = 'BudgetError';
  }
}

/** An error the task itself threw in the worker, with its name kept (WikitextLimitError, ...). */
export class WorkerTaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface WorkerPoolOptions {
  /** Starts one worker with the given heap limits (startModuleWorker). */
  start: (limits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number }) => Worker;
  size: number;
  budget: WorkerBudget;
  flags: BudgetFlags;
  /** What a task is, for messages ("parsing the document"). */
  what: string;
  /** What one task reads, for the budget messages ("the limit per document"); default "document". */
  unit?: string;
}

interface Slot {
  worker: Worker;
  busy: boolean;
  /** Resolves when the worker has loaded its modules: a task's time runs from then, not from the start. */
  ready: Promise<void>;
  /** While busy: settles its task with `e` and drops its listeners, leaving the worker to close(). */
  abandon?: (e: Error) => void;
}

interface Pending {
  task: string;
  payload: unknown;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | undefined;
}

let nextId = 1;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {}

  /** Runs `task` with `payload` in a worker; rejects with BudgetError over budget, WorkerTaskError when the task throws. */
  run<T>(task: string, payload: unknown, opts: { signal?: AbortSignal } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${this.opts.what}: the worker pool is closed`));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task, payload, resolve: resolve as (v: unknown) => void, reject, signal: opts.signal });
      this.pump();
    });
  }

  /** "(the limit per document): raise it with --flag if the document is genuine"; without a flag, the limit alone. */
  private limitNote(flag: string): string {
    const unit = this.opts.unit ?? 'document';
    return `(the limit per ${unit})${flag ? `: raise it with ${flag} if the ${unit} is genuine` : ''}`;
  }

  private pump(): void {
    while (!this.closed && this.queue.length) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.opts.size) {
        const worker = this.startWorker();
        slot = { worker, busy: false, ready: readyOf(worker) };
        this.slots.push(slot);
      }
      if (!slot) return;
      const job = this.queue.shift()!;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason instanceof Error ? job.signal.reason : new Error('aborted'));
        continue;
      }
      this.dispatch(slot, job);
    }
  }

  private startWorker(): Worker {
    const heap = this.opts.budget.heapMb;
    const worker = this.opts.start({ maxOldGenerationSizeMb: heap, maxYoungGenerationSizeMb: Math.max(16, Math.min(64, Math.round(heap / 8))) });
    worker.unref();
    return worker;
  }

  private dispatch(slot: Slot, job: Pending): void {
    slot.busy = true;
    slot.worker.ref();
    // Closed while the worker loads: the task is settled by close(), not by the worker's start or exit.
    let abandoned = false;
    slot.abandon = (e) => {
      abandoned = true;
      job.reject(e);
    };
    slot.ready.then(
      () => {
        if (!abandoned) this.start(slot, job);
      },
      (e: Error) => {
        if (abandoned) return;
        this.removeSlot(slot);
        void slot.worker.terminate();
        job.reject(new Error(`${this.opts.what}: its worker could not start (${e.message})`));
        this.pump();
      },
    );
  }

  private removeSlot(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private start(slot: Slot, job: Pending): void {
    const { worker } = slot;
    const id = nextId++;
    const { timeMs, heapMb } = this.opts.budget;
    let settled = false;
    // `replace`: the worker is terminated and a fresh one will take its place; 'closing': close() settles
    // the task and terminates the worker itself, so the worker is neither unref'd nor put back.
    const finish = (fn: () => void, replace: boolean | 'closing') => {
      if (settled) return;
      settled = true;
      slot.abandon = undefined;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      job.signal?.removeEventListener('abort', onAbort);
      if (replace === true) {
        void worker.terminate();
        this.removeSlot(slot);
      } else if (replace === false && !this.closed) {
        slot.busy = false;
        worker.unref();
      }
      fn();
      this.pump();
    };
    const onMessage = (m: { id: number; ok: boolean; result?: unknown; error?: { name: string; message: string } }) => {
      if (m.id !== id) return;
      if (m.ok) finish(() => job.resolve(m.result), false);
      else finish(() => job.reject(new WorkerTaskError(m.error?.name ?? 'Error', m.error?.message ?? 'failed')), false);
    };
    const onError = (e: Error & { code?: string }) => {
      const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap limit/i.test(e.message);
      finish(
        () =>
          job.reject(
            oom
              ? new BudgetError('memory', `${this.opts.what} needed more than ${heapMb} MB of memory ${this.limitNote(this.opts.flags.memory)}`)
              : new Error(`${this.opts.what} failed in its worker: ${e.message}`),
          ),
        true,
      );
    };
    const onExit = (code: number) => finish(() => job.reject(new Error(`${this.opts.what}: its worker stopped (exit code ${code})`)), true);
    const onAbort = () => finish(() => job.reject(job.signal!.reason instanceof Error ? job.signal!.reason : new Error('aborted')), true);
    const timer = setTimeout(
      () => finish(() => job.reject(new BudgetError('time', `${this.opts.what} took longer than ${fmtSeconds(timeMs)} ${this.limitNote(this.opts.flags.time)}`)), true),
      timeMs,
    );
    slot.abandon = (e) => finish(() => job.reject(e), 'closing');
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    job.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ id, task: job.task, payload: job.payload });
  }

  /**
   * Terminates every worker; tasks still queued or running are rejected. Running tasks are settled before
   * their workers are terminated, so that an answer arriving meanwhile cannot unref a stopping worker.
   */
  async close(): Promise<void> {
    this.closed = true;
    const closed = () => new Error(`${this.opts.what}: the worker pool is closed`);
    for (const job of this.queue.splice(0)) job.reject(closed());
    const slots = this.slots.splice(0);
    for (const s of slots) s.abandon?.(closed());
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

/** The worker's first message is `{ready: true}` (serveWorkerTasks sends it once its handlers are set). */
function readyOf(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { ready?: boolean }) => {
      if (!m?.ready) return;
      cleanup();
      resolve();
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`exit code ${code}`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

function fmtSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The worker side: answers each `{id, task, payload}` with the handler's result or its error's name and
 * message.
 */
export function serveWorkerTasks(port: { on(ev: 'message', fn: (m: { id: number; task: string; payload: unknown }) => void): void; postMessage(m: unknown): void }, handlers: Record<string, (payload: never) => Promise<unknown> | unknown>): void {
  port.on('message', async (m) => {
    try {
      const handler = handlers[m.task];
      if (!handler) throw new Error(`unknown task ${m.task}`);
      const result = await handler(m.payload as never);
      port.postMessage({ id: m.id, ok: true, result });
    } catch (e) {
      const err = e as Error;
      port.postMessage({ id: m.id, ok: false, error: { name: err.name ?? 'Error', message: err.message ?? String(e) } });
    }
  });
  port.postMessage({ ready: true });
}
