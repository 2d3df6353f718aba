/**
 * POST /v1/verify/batch: several claims -> one verdict each (WikiCheck-style batch checking).
 *
 * Limits are the single route's: each claim is validated as /v1/verify's (at most MAX_BATCH_CLAIMS per
 * batch), and the whole batch runs within one request deadline (--timeout). The claims run one after
 * another, each taking a limiter slot of its own and queueing like a single request: a batch never holds
 * more than one slot, so it slows the others no more than one more client would, and a long batch cannot
 * starve single requests. When the deadline passes or the queue is full, the claims not done come back
 * with an error (`complete: false`) beside the verdicts already made; a batch that made none answers
 * 504 / 503 as the single route does.
 */
import { HttpError, OverloadedError, ShuttingDownError, TimeoutError } from '../errors.js';
import { requestDeadline, runInSlot } from '../deadline.js';
import { defineRoute, errorResponses } from '../route.js';
import { VerifyBatchRequest, VerifyBatchResponse } from '../schemas.js';
import type { Verdict } from '../../verify/types.js';

interface Entry {
  index: number;
  claim: string;
  verdict?: Verdict;
  error?: { error: 'timeout' | 'overloaded' | 'shutting_down'; message: string };
}

/** Errors that end a batch early, each claim left then reporting it; anything else fails the request. */
function stopReason(e: unknown): Entry['error'] | undefined {
  if (e instanceof TimeoutError) return { error: 'timeout', message: e.message };
  if (e instanceof OverloadedError) return { error: 'overloaded', message: e.message };
  if (e instanceof ShuttingDownError) return { error: 'shutting_down', message: e.message };
  return undefined;
}

export const verifyBatchRoute = defineRoute(
  {
    method: 'POST',
    path: '/v1/verify/batch',
    tag: 'verify',
    summary: 'Verify several claims against the index',
    description:
      'Claims run one after another, each in a concurrency slot of its own, all within one request deadline; claims not verified by then (or refused by a full queue) come back with an error and `complete: false`.',
    body: VerifyBatchRequest,
    responses: { 200: { description: 'One entry per claim, in order.', schema: VerifyBatchResponse }, ...errorResponses(400, 413, 503, 504) },
  },
  async (ctx, { body }, _req, reply) => {
    const t0 = performance.now();
    const deadline = requestDeadline(reply, ctx.options.requestTimeoutMs);
    const results: Entry[] = [];
    let stopped: Entry['error'] | undefined;
    let first: unknown;
    try {
      for (const [index, claim] of body.claims.entries()) {
        if (!stopped) {
          try {
            if (ctx.shuttingDown) throw new ShuttingDownError();
            const verdict = await runInSlot(ctx.limiter, deadline, async (signal) => ctx.app.decideDocuments(await ctx.verifier.verify(claim, signal), { signal }));
            results.push({ index, claim, verdict });
            continue;
          } catch (e) {
            stopped = stopReason(e);
            if (!stopped) throw e;
            first = e;
          }
        }
        results.push({ index, claim, error: stopped });
      }
    } finally {
      deadline.dispose();
    }
    const verified = results.filter((r) => r.verdict).length;
    // Nothing done: the same answer (and Retry-After) as a single request refused or timed out.
    if (verified === 0 && first instanceof HttpError) throw first;
    return { results, verified, complete: verified === results.length, tookMs: Math.round(performance.now() - t0) };
  },
);
