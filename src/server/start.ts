/**
 * Starting and stopping the server: open the job and annotation stores, build the app around the
 * pipeline, listen, and shut down gracefully:
 *
 *   1. stop accepting: the listening socket closes and requests arriving on open connections get 503;
 *   2. running audit jobs get `shutdownGraceMs` to finish, then are persisted as interrupted (with the
 *      citations they finished), queued ones at once; their event streams end with the final state;
 *   3. requests in flight finish (fastify's close waits for them);
 *   4. the annotation file and the store are closed.
 */
import type { FastifyInstance } from 'fastify';
import { AnnotationStore } from '../annotations/annotation-store.js';
import type { Veracite } from '../app/veracite.js';
import { buildApp } from './app.js';
import { SideAuditService } from './audit-side.js';
import type { AuditService } from './audit-service.js';
import type { ServerContext } from './context.js';
import { ShuttingDownError } from './errors.js';
import { checkExposure } from './exposure.js';
import { JobRunner } from './jobs/job-runner.js';
import { JobStore } from './jobs/job-store.js';
import { Limiter } from './limiter.js';
import { resolveServerOptions, type ServerOptions } from './options.js';
import { SseHub } from './sse.js';

export interface StartOptions {
  /** Default: the citation audit the composition root assembles (audit-side.ts); tests inject their own. */
  audit?: AuditService;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** What the operator should know about how the server is exposed (printed by `veracite serve`). */
  warnings: string[];
  /** Graceful shutdown (idempotent); resolves when everything is closed. */
  close(): Promise<void>;
}

/**
 * Serves `vc`'s index with its pipeline. Every model is loaded before listening (the verifier's scorer and
 * entailment model, the audit's engine, WordNet and the word vectors), so a broken model fails the start,
 * not the first request, and no request waits behind a model load: the event loop is free from the moment
 * the server listens (a missing word-vector cache is built in a worker thread meanwhile, see
 * models/align/word-vectors.ts). Closing the server closes `vc`.
 */
export async function startServer(options: ServerOptions, vc: Veracite, start: StartOptions = {}): Promise<RunningServer> {
  const o = resolveServerOptions(options, vc.settings.index.dir);
  // Before anything slow: a server that may not start should say so at once.
  const warnings = checkExposure(o);
  const store = vc.requireStore();
  const verifier = await vc.verifier();
  // Part of the verifier already; named here because serving must not start without it.
  await vc.models.alignment();
  const audit = start.audit ?? new SideAuditService(await vc.auditPipeline());
  const [jobStore, annotations] = await Promise.all([JobStore.open(o.dataDir), AnnotationStore.open(o.dataDir)]);
  const ctx: ServerContext = {
    options: o,
    app: vc,
    store,
    retriever: vc.retriever(),
    verifier,
    audit,
    jobs: new JobRunner(jobStore, audit, {
      concurrency: o.auditConcurrency,
      maxQueue: o.auditQueue,
      maxCitations: vc.settings.audit.maxCitations,
      retention: { keepJobs: o.keepJobs, maxAgeMs: o.jobMaxAgeMs },
      reader: vc.documentReader(),
      fetchPolicy: { timeoutMs: vc.settings.sources.timeoutMs, maxBytes: vc.settings.sources.maxBytes, maxRedirects: vc.settings.sources.maxRedirects },
    }),
    annotations,
    limiter: new Limiter(o.concurrency, o.queue),
    sse: new SseHub(),
    startedAt: Date.now(),
    shuttingDown: false,
  };
  await ctx.jobs.prune();
  const app = buildApp(ctx);
  app.addHook('onRequest', async () => {
    if (ctx.shuttingDown) throw new ShuttingDownError();
  });
  // Keep-alive connections end after their in-flight response once shutdown has begun.
  app.addHook('onSend', async (_req, reply) => {
    if (ctx.shuttingDown) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await annotations.close();
    await vc.close();
  });
  await app.listen({ host: o.host, port: o.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      ctx.shuttingDown = true;
      // Stop listening now (the drain below can take a while); fastify's own close, later, waits for the
      // open connections. http.Server.close also drops idle keep-alive connections.
      app.server.close();
      await ctx.jobs.shutdown(o.shutdownGraceMs);
      ctx.sse.closeAll();
      await app.close();
    })());
  return { app, ctx, url: `http://${host}:${port}`, warnings, close };
}

/**
 * SIGINT / SIGTERM -> graceful close, then exit 0 (1 if closing failed). A second signal exits at once
 * (130): the operator's way out of a long grace period. Returns a function that removes the handlers.
 */
export function closeOnSignals(server: RunningServer, log: (line: string) => void = (l) => console.error(l)): () => void {
  let stopping = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) {
      log(`veracite serve: ${sig} again, exiting without waiting`);
      process.exit(130);
    }
    stopping = true;
    const grace = Math.round(server.ctx.options.shutdownGraceMs / 1000);
    log(`veracite serve: ${sig}: not accepting requests; running audits get up to ${grace} s to finish, then are saved as interrupted`);
    server.close().then(
      () => {
        log('veracite serve: stopped');
        process.exit(0);
      },
      (e: Error) => {
        log(`veracite serve: error while stopping: ${e.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
