/** GET /v1/audits/{id} (status + results) and GET /v1/audits (recent jobs, without results). */
import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { publicJob } from '../jobs/job-types.js';
import { defineRoute, errorResponses } from '../route.js';
import { JobParams, JobResponse, JobSummary } from '../schemas.js';

export const auditsGetRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/audits/{id}',
    tag: 'audit',
    summary: 'An audit job: status, progress and per-citation results',
    params: JobParams,
    responses: { 200: { description: 'The job.', schema: JobResponse }, ...errorResponses(400, 404) },
  },
  async (ctx, { params }) => {
    const job = ctx.jobs.get(params.id);
    if (!job) throw new NotFoundError(`no audit job ${params.id}`);
    return publicJob(job);
  },
);

export const auditsListRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/audits',
    tag: 'audit',
    summary: 'Recent audit jobs, newest first (without results)',
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict(),
    responses: { 200: { description: 'Jobs.', schema: z.object({ jobs: z.array(JobSummary) }) }, ...errorResponses(400) },
  },
  async (ctx, { query }) => ({ jobs: ctx.jobs.store.list().slice(0, query.limit).map((j) => publicJob(j, false)) }),
);
