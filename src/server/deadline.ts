/**
 * Per-request deadline for model-bound work: the request waits for a limiter slot and runs within
 * `timeoutMs`, or gets 504. The signal handed to the work aborts on the deadline or when the client
 * goes away, so a request still waiting in the queue leaves it instead of running for nobody, and work
 * that runs (verify, search, citation check: each takes the signal) stops between its stages and in the
 * model calls that honour it, freeing its slot at the deadline rather than when it would have ended.
 */
import type { FastifyReply } from 'fastify';
import { TimeoutError } from './errors.js';
import type { Limiter } from './limiter.js';

export async function runLimited<T>(limiter: Limiter, reply: FastifyReply, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const onClose = () => {
    // 'close' also fires after a normal response; only an unfinished one means the client left.
    if (!reply.raw.writableFinished) ac.abort(new Error('client closed the connection'));
  };
  reply.raw.once('close', onClose);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new TimeoutError(timeoutMs);
      ac.abort(e);
      reject(e);
    }, timeoutMs);
  });
  try {
    return await Promise.race([limiter.run(() => work(ac.signal), ac.signal), deadline]);
  } finally {
    clearTimeout(timer);
    reply.raw.off('close', onClose);
  }
}
