/**
 * Per-request deadline for model-bound work: the request waits for a limiter slot and runs within
 * `timeoutMs`, or gets 504. The signal handed to the work aborts on the deadline or when the client
 * goes away, so a request still waiting in the queue leaves it instead of running for nobody, and work
 * that runs (verify, search, citation check: each takes the signal) stops between its stages and in the
 * model calls that honour it, freeing its slot at the deadline rather than when it would have ended.
 */
import type { FastifyReply } from 'fastify';
import { ClientClosedError, TimeoutError } from './errors.js';
import type { Limiter } from './limiter.js';

export interface RequestDeadline {
  /** Aborts at the deadline (reason: TimeoutError) or when the client closes the connection (ClientClosedError). */
  signal: AbortSignal;
  /** Rejects with TimeoutError at the deadline (race the work against it). */
  expired: Promise<never>;
  dispose(): void;
}

/** One deadline for a whole request, which may run several pieces of work (the batch route). */
export function requestDeadline(reply: FastifyReply, timeoutMs: number): RequestDeadline {
  const ac = new AbortController();
  const onClose = () => {
    // 'close' also fires after a normal response; only an unfinished one means the client left.
    if (!reply.raw.writableFinished) ac.abort(new ClientClosedError());
  };
  reply.raw.once('close', onClose);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new TimeoutError(timeoutMs);
      ac.abort(e);
      reject(e);
    }, timeoutMs);
  });
  expired.catch(() => undefined); // raced by the caller; never an unhandled rejection when not
  return {
    signal: ac.signal,
    expired,
    dispose: () => {
      clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}

/** `work` in a limiter slot, within the deadline. */
export function runInSlot<T>(limiter: Limiter, deadline: RequestDeadline, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.race([limiter.run(() => work(deadline.signal), deadline.signal), deadline.expired]);
}

export async function runLimited<T>(limiter: Limiter, reply: FastifyReply, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = requestDeadline(reply, timeoutMs);
  try {
    return await runInSlot(limiter, deadline, work);
  } finally {
    deadline.dispose();
  }
}
