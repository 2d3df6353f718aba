/**
 * POST /v1/audits: queue an audit of an article (wikitext, HTML, or a URL fetched by the server when
 * it runs with --fetch). Answers 202 with the job id at once; progress comes from the events stream.
 */
import { runLimited } from '../deadline.js';
import { documentLimitError, HttpError } from '../errors.js';
import type { AuditJobInput } from '../jobs/job-types.js';
import { defineRoute, errorResponses } from '../route.js';
import { AuditCreateRequest, JobCreatedResponse } from '../schemas.js';

export const auditsCreateRoute = defineRoute(
  {
    method: 'POST',
    path: '/v1/audits',
    tag: 'audit',
    summary: 'Start a citation audit job',
    description: 'Give exactly one of wikitext, html, url (url only when the server runs with --fetch). A re-submitted input whose last job was interrupted resumes it.',
    body: AuditCreateRequest,
    responses: { 202: { description: 'Job accepted.', schema: JobCreatedResponse }, ...errorResponses(400, 413, 422, 503) },
  },
  async (ctx, { body }, _req, reply) => {
    if (body.url !== undefined && !ctx.app.settings.sources.fetch) {
      throw new HttpError(400, 'invalid_request', 'url input needs live fetch: start the server with --fetch, or send the page as html', [
        { path: 'url', message: 'live fetch is off on this server (--fetch)' },
      ]);
    }
    const input: AuditJobInput =
      body.wikitext !== undefined ? { kind: 'wikitext', text: body.wikitext } : body.html !== undefined ? { kind: 'html', text: body.html } : { kind: 'url', url: body.url! };
    if (body.title !== undefined) input.title = body.title;
    // A full queue refuses before the body is parsed: parsing is the costly part of a submission.
    ctx.jobs.assertAccepting();
    // A body is read now, in a parse worker within the budgets, so that a document that cannot be read is
    // refused with 413/422 here, and the event loop never parses it (a URL is read by its job). The parse
    // takes a limiter slot and the request's deadline, and stops when the client goes away: abandoned
    // submissions of hostile articles kept the parse workers busy for a minute each (a tester's finding).
    let parsed;
    if (input.kind !== 'url') {
      try {
        parsed = await runLimited(ctx.limiter, reply, ctx.options.requestTimeoutMs, (signal) => ctx.jobs.read(input, signal));
      } catch (e) {
        throw documentLimitError(e) ?? e;
      }
    }
    const job = await ctx.jobs.submit(input, parsed);
    const self = `/v1/audits/${job.id}`;
    reply.code(202).header('location', self);
    const out: Record<string, unknown> = { id: job.id, status: job.status, links: { self, events: `${self}/events` } };
    if (job.resumedFrom) out.resumedFrom = job.resumedFrom;
    return out;
  },
);
