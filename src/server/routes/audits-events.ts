/**
 * GET /v1/audits/{id}/events: the job's progress as server-sent events.
 *
 *   event: status    data: job summary (sent first, and when the job starts / knows its size)
 *   event: citation  data: {seq, done, total, result}   id: seq (1, 2, ... in completion order)
 *   event: done      data: final job summary (done, failed or interrupted); the stream then ends
 *
 * Citations finished before the client connected are replayed first, so a late or reconnecting client
 * (EventSource sends Last-Event-ID) sees every citation exactly once and in order: the replay and the
 * subscription to live events happen in the same tick, with no await between them.
 */
import { NotFoundError } from '../errors.js';
import { FINAL_STATUSES, publicJob, type AuditJob } from '../jobs/job-types.js';
import { defineRoute, errorResponses } from '../route.js';
import { JobParams } from '../schemas.js';

function lastEventId(header: string | string[] | undefined): number {
  const n = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export const auditsEventsRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/audits/{id}/events',
    tag: 'audit',
    summary: 'Per-citation progress of an audit job (server-sent events)',
    params: JobParams,
    responses: { 200: { description: 'An event stream: status, citation (one per audited citation), done.', contentType: 'text/event-stream' }, ...errorResponses(400, 404) },
  },
  async (ctx, { params }, req, reply) => {
    const job = ctx.jobs.get(params.id);
    if (!job) throw new NotFoundError(`no audit job ${params.id}`);
    const stream = ctx.sse.open(reply);
    const summary = (j: AuditJob) => publicJob(j, false);
    stream.send('status', summary(job));
    const after = lastEventId(req.headers['last-event-id']);
    job.results.forEach((result, i) => {
      if (i + 1 > after) stream.send('citation', { seq: i + 1, done: i + 1, total: job.total, result }, i + 1);
    });
    if (FINAL_STATUSES.has(job.status)) {
      stream.send('done', summary(job));
      stream.end();
      return;
    }
    const unsubscribe = ctx.jobs.subscribe(job.id, (e) => {
      if (e.type === 'citation') stream.send('citation', { seq: e.seq, done: e.done, total: e.total, result: e.result }, e.seq);
      else if (e.type === 'status') stream.send('status', summary(e.job));
      else {
        stream.send('done', summary(e.job));
        stream.end();
      }
    });
    stream.onClose(unsubscribe);
  },
);
