/**
 * GET /v1/comparisons/next: the next blind pair to annotate: an audited citation (least verifiable first)
 * with its existing source and its top suggestion as A and B in random order, minus the pairs the page
 * asks to pass over (`skip`); 204 when none is left.
 *
 * Why the page needs `skip`: "skip this pair" (S) has to get another pair, and the page holds a choice
 * for a few seconds before sending it so that "undo" (U) can take it back without an API to retract
 * stored annotations (the annotation file stays append-only and final); meanwhile the pair it holds
 * must not come back as "next". Pair ids name their citation, so skipping one skips that citation in
 * whatever A/B order it was shown.
 */
import { z } from 'zod';
import { comparisonOrder, decodePairId, encodePairId, newPairRef, pairViews } from '../../annotations/blind-pair.js';
import type { SourceView } from '../../audit/citation-view.js';
import { HttpError, NotFoundError } from '../errors.js';
import { defineRoute, errorResponses } from '../route.js';
import { ComparisonResponse } from '../schemas.js';

/** Pairs a page may ask to pass over at once (a session of skipping; ids are ~80 characters). */
export const MAX_SKIP = 200;

export const ComparisonNextQuery = z
  .object({
    job: z.uuid().optional().describe('Audit job to draw from (default: every finished job).'),
    skip: z
      .union([z.string().max(500), z.array(z.string().max(500)).max(MAX_SKIP)])
      .optional()
      .describe(`Pair ids (from earlier answers) not to return, repeated: ?skip=a&skip=b (at most ${MAX_SKIP}).`),
  })
  .strict();

export const ComparisonNextResponse = ComparisonResponse.extend({
  skipped: z.number().int().describe('Pairs not annotated yet that were passed over because of `skip`.'),
});

/** What the page may see of a side: no docId, URL or role. */
const blind = (v: SourceView) => ({ title: v.title, sentences: v.sentences });

export const comparisonsNextRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/comparisons/next',
    tag: 'annotations',
    summary: 'Next blind comparison pair (existing source vs. top suggestion, unlabelled A/B), optionally passing over some',
    query: ComparisonNextQuery,
    responses: {
      200: { description: 'A pair to annotate.', schema: ComparisonNextResponse },
      204: { description: 'Nothing left to compare (apart from the skipped pairs).' },
      ...errorResponses(400, 404),
    },
  },
  async (ctx, { query }, _req, reply) => {
    const skipIds = query.skip === undefined ? [] : Array.isArray(query.skip) ? query.skip : [query.skip];
    const skip = new Set<string>();
    skipIds.forEach((id, i) => {
      const ref = decodePairId(id);
      if (!ref) throw new HttpError(400, 'invalid_request', `skip[${i}]: not a pair id from /v1/comparisons/next`, [{ path: `skip.${i}`, message: 'not a pair id from /v1/comparisons/next' }]);
      skip.add(`${ref.jobId}\u0000${ref.citationId}`);
    });
    let jobs = ctx.jobs.store.list();
    if (query.job) {
      const job = ctx.jobs.get(query.job);
      if (!job) throw new NotFoundError(`no audit job ${query.job}`);
      jobs = [job];
    }
    const open = jobs.flatMap((job) => comparisonOrder(job.results).filter((r) => !ctx.annotations.has(job.id, r.citationId)).map((r) => ({ job, r })));
    const wanted = open.filter(({ job, r }) => !skip.has(`${job.id}\u0000${r.citationId}`));
    const next = wanted[0];
    if (!next) return reply.code(204).send();
    const ref = newPairRef(next.job.id, next.r);
    const views = pairViews(next.r, ref)!;
    return {
      pairId: encodePairId(ref),
      jobId: next.job.id,
      claim: next.r.claim,
      context: next.r.context,
      a: blind(views.a),
      b: blind(views.b),
      remaining: wanted.length,
      skipped: open.length - wanted.length,
    };
  },
);
