/**
 * Concurrency limit with a bounded queue, for the model-bound work (verify, citation checks, search).
 *
 * Node runs the pipeline's JavaScript on one thread, but each request also waits on LanceDB and the
 * ONNX/TF runtimes' own threads; letting every request start at once only makes all of them slow and
 * grows memory. So at most `concurrency` run, `maxQueue` wait, and the rest are refused at once with
 * 503 + Retry-After (an estimate from recent service times) instead of timing out later.
 */
import { OverloadedError } from './errors.js';

interface Waiter {
  start: () => void;
  reject: (e: unknown) => void;
}

export interface LimiterStats {
  concurrency: number;
  maxQueue: number;
  active: number;
  queued: number;
  /** Moving average of recent service times, ms. */
  avgMs: number;
}

export class Limiter {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private avgMs = 1000;

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
  ) {
    if (concurrency < 1) throw new Error('concurrency must be >= 1');
  }

  stats(): LimiterStats {
    return { concurrency: this.concurrency, maxQueue: this.maxQueue, active: this.active, queued: this.queue.length, avgMs: Math.round(this.avgMs) };
  }

  /** Seconds until a slot is likely free for a request arriving now. */
  retryAfterSeconds(): number {
    return ((this.queue.length + 1) * this.avgMs) / this.concurrency / 1000;
  }

  /**
   * Runs `fn` when a slot is free. Rejects with OverloadedError when the queue is full, and with the
   * signal's reason when `signal` aborts while waiting (a timed-out or disconnected request gives up
   * its place). Once started, `fn` holds its slot until it returns, even if the request was answered
   * already, so the limit counts the work really running; the routes hand the same signal to the
   * pipeline, which stops at its next stage (deadline.ts), so a timed-out request frees its slot then.
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.active >= this.concurrency) {
      if (this.queue.length >= this.maxQueue) {
        throw new OverloadedError(`busy: ${this.active} running, ${this.queue.length} queued`, this.retryAfterSeconds());
      }
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject,
        };
        const onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.queue.push(waiter);
      });
    } else {
      this.active++;
    }
    // A waiter is started by release() with the slot handed over (active unchanged).
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = 0.8 * this.avgMs + 0.2 * (performance.now() - t);
      this.release();
    }
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next.start();
    else this.active--;
  }
}
