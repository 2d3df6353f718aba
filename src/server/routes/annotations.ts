/**
 * POST /v1/annotations: record a blind choice (A, B or neither) for a pair from /v1/comparisons/next;
 * 201 once it is fsync'ed. GET /v1/annotations.jsonl: every annotation, one JSON object per line.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { decodePairId, pairSides, preferredRole } from '../../annotations/blind-pair.js';
import type { Annotation } from '../../annotations/types.js';
import { HttpError } from '../errors.js';
import { defineRoute, errorResponses } from '../route.js';
import { AnnotationCreateRequest } from '../schemas.js';

function badPair(message: string): HttpError {
  return new HttpError(400, 'invalid_request', `pairId: ${message}`, [{ path: 'pairId', message }]);
}

export const annotationsCreateRoute = defineRoute(
  {
    method: 'POST',
    path: '/v1/annotations',
    tag: 'annotations',
    summary: 'Record a blind comparison choice',
    body: AnnotationCreateRequest,
    responses: {
      // The roles stay hidden in the answer too: a page that learned them could bias the next choices.
      201: { description: 'Stored durably.', schema: z.object({ id: z.string(), createdAt: z.string() }) },
      ...errorResponses(400, 413),
    },
  },
  async (ctx, { body }, _req, reply) => {
    const ref = decodePairId(body.pairId);
    if (!ref) throw badPair('not a pair id from /v1/comparisons/next');
    const job = ctx.jobs.get(ref.jobId);
    if (!job) throw badPair(`its audit job ${ref.jobId} does not exist`);
    const result = job.results.find((r) => r.citationId === ref.citationId);
    const sides = result && pairSides(result, ref);
    if (!result || !sides) throw badPair('its citation has no such pair');
    const a: Annotation = {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      kind: 'blind-pair',
      jobId: job.id,
      citationId: result.citationId,
      claim: result.claim,
      context: result.context,
      ...sides,
      choice: body.choice,
      preferred: preferredRole(body.choice, ref),
    };
    if (body.annotator) a.annotator = body.annotator;
    if (body.comment) a.comment = body.comment;
    await ctx.annotations.append(a);
    reply.code(201);
    return { id: a.id, createdAt: a.createdAt };
  },
);

export const annotationsExportRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/annotations.jsonl',
    tag: 'annotations',
    summary: 'Export every annotation as JSONL',
    responses: { 200: { description: 'One annotation (see the Annotation schema) per line.', contentType: 'application/x-ndjson' } },
  },
  async (ctx, _input, _req, reply) =>
    reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="annotations.jsonl"')
      .send(Readable.from(ctx.annotations.lines())),
);
