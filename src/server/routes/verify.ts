/** POST /v1/verify: one claim -> verdict, evidence, candidate documents, provenance. */
import { CouldNotCheckError } from '../../app/search-verify.js';
import { runLimited } from '../deadline.js';
import { HttpError } from '../errors.js';
import { defineRoute, errorResponses } from '../route.js';
import { VerdictResponse, VerifyRequest } from '../schemas.js';

export const verifyRoute = defineRoute(
  {
    method: 'POST',
    path: '/v1/verify',
    tag: 'verify',
    summary: 'Verify a claim against the index (and search providers, with `search`)',
    body: VerifyRequest,
    responses: { 200: { description: 'The verdict.', schema: VerdictResponse }, ...errorResponses(400, 413, 503, 504) },
  },
  // With `search`, the providers are searched too (the index alongside): app/search-verify.ts. An index
  // verdict's evidence documents are each decided as check decides the pair (app/verify-decisions.ts), as
  // `veracite verify` prints them: one decision wherever the pair is asked about.
  async (ctx, { body }, _req, reply) =>
    runLimited(ctx.limiter, reply, ctx.options.requestTimeoutMs, async (signal) =>
      body.search
        ? ctx.app.verifyBySearch(body.claim, { signal, providers: body.search }).catch((e: unknown) => {
            // Every provider failed: 503 with each failure named, never a verdict (issue 44).
            if (e instanceof CouldNotCheckError) throw new HttpError(503, 'could_not_check', e.message);
            throw e;
          })
        : ctx.app.decideDocuments(await ctx.verifier.verify(body.claim, signal), { signal }),
    ),
);
