/** GET /v1/health: index snapshot and size (and whether an ingest of it has not finished), model ids, uptime, load. */
import { VERACITE_VERSION } from '../../provenance/version.js';
import { defineRoute } from '../route.js';
import { HealthResponse } from '../schemas.js';
import { unfinishedIngests } from '../../store/unfinished-ingest.js';

export const healthRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/health',
    tag: 'service',
    summary: 'Service health, index snapshot, models',
    responses: { 200: { description: 'Health.', schema: HealthResponse } },
  },
  async (ctx) => {
    const [stats, snapshot, unfinished] = await Promise.all([ctx.store.stats(), ctx.store.snapshot(), unfinishedIngests(ctx.store)]);
    const l = ctx.limiter.stats();
    return {
      status: ctx.shuttingDown ? 'shutting_down' : 'ok',
      version: VERACITE_VERSION,
      uptimeSeconds: Math.round((Date.now() - ctx.startedAt) / 100) / 10,
      index: { dir: ctx.app.settings.index.dir ?? '', snapshot, engine: ctx.store.engine, ...stats, complete: unfinished.length === 0, unfinishedIngests: unfinished },
      models: ctx.verifier.modelInfos(),
      audit: ctx.audit.name,
      fetch: ctx.app.settings.sources.fetch,
      limits: { concurrency: l.concurrency, queue: l.maxQueue, active: l.active, queued: l.queued, bodyLimit: ctx.options.bodyLimit, requestTimeoutMs: ctx.options.requestTimeoutMs },
      jobs: ctx.jobs.stats(),
    };
  },
);
