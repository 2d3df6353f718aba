/**
 * GET /v1/comparisons/next: the next blind pair to annotate: an audited citation (least verifiable
 * first) with its existing source and its top suggestion as A and B in random order. 204 when every
 * comparable citation has been annotated.
 */
import { comparisonOrder, encodePairId, newPairRef, pairViews } from '../../annotations/blind-pair.js';
import type { SourceView } from '../../audit/citation-view.js';
import { NotFoundError } from '../errors.js';
import { defineRoute, errorResponses } from '../route.js';
import { ComparisonQuery, ComparisonResponse } from '../schemas.js';

/** What the page may see of a side: no docId, URL or role. */
const blind = (v: SourceView) => ({ title: v.title, sentences: v.sentences });

export const comparisonsNextRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/comparisons/next',
    tag: 'annotations',
    summary: 'Next blind comparison pair (existing source vs. top suggestion, unlabelled A/B)',
    query: ComparisonQuery,
    responses: {
      200: { description: 'A pair to annotate.', schema: ComparisonResponse },
      204: { description: 'Nothing left to compare.' },
      ...errorResponses(400, 404),
    },
  },
  async (ctx, { query }, _req, reply) => {
    let jobs = ctx.jobs.store.list();
    if (query.job) {
      const job = ctx.jobs.get(query.job);
      if (!job) throw new NotFoundError(`no audit job ${query.job}`);
      jobs = [job];
    }
    const open = jobs.flatMap((job) => comparisonOrder(job.results).filter((r) => !ctx.annotations.has(job.id, r.citationId)).map((r) => ({ job, r })));
    const next = open[0];
    if (!next) return reply.code(204).send();
    const ref = newPairRef(next.job.id, next.r);
    const views = pairViews(next.r, ref)!;
    return { pairId: encodePairId(ref), jobId: next.job.id, claim: next.r.claim, context: next.r.context, a: blind(views.a), b: blind(views.b), remaining: open.length };
  },
);
