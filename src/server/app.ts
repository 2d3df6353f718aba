/**
 * The fastify application: limits, the error contract, the API routes and the web page. No listening
 * and no lifecycle here (start.ts), so tests can build it around injected pieces.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';
import { SettingsError } from '../util/settings-error.js';
import { registerCors } from './cors.js';
import { HttpError } from './errors.js';
import { redactUrl, registerExposureGuards } from './exposure.js';
import { API_ROUTES } from './routes/index.js';
import { registerStatic } from './static.js';
import { clientErrorHandler } from './strict-headers.js';

/** fastify's own errors -> our codes. */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
};

/** Settings a request can choose, by the request field that chooses them. */
const REQUEST_FIELD: Record<string, string> = { 'retrieval.mode': 'mode' };

export function buildApp(ctx: ServerContext): FastifyInstance {
  const app = Fastify({
    logger: ctx.options.log
      ? { level: 'info', serializers: { req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }) } }
      : false,
    bodyLimit: ctx.options.bodyLimit,
    // Time to receive a whole request (a slow client holding a connection open); responses are bounded
    // by the per-request deadline instead, and SSE streams by nothing.
    requestTimeout: 60_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Requests Node's parser refuses (a second Content-Length...) get our error shape and the reason.
    clientErrorHandler,
  });

  app.setErrorHandler((err: FastifyError | HttpError | Error, req, reply) => {
    if (err instanceof HttpError) {
      reply.headers(err.headers).code(err.statusCode);
      return reply.send({ error: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) });
    }
    // A request asked for something the index or the models cannot do (e.g. dense search without vectors).
    if (err instanceof SettingsError) {
      const field = REQUEST_FIELD[err.setting] ?? err.setting;
      return reply.code(400).send({ error: 'invalid_request', message: `${field}: ${err.detail}`, issues: [{ path: field, message: err.detail }] });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = FASTIFY_CODES[(err as FastifyError).code ?? ''] ?? (err instanceof SyntaxError ? 'invalid_json' : 'invalid_request');
      return reply.code(status).send({ error: code, message: err.message });
    }
    req.log.error(err);
    if (!ctx.options.log) console.error(`veracite serve: ${req.method} ${redactUrl(req.url)}: ${err.stack ?? err.message}`);
    return reply.code(500).send({ error: 'internal', message: err.message });
  });

  // CORS for the --allow-origin pages (the wiki gadget) first, so the guards' refusals stay readable there.
  registerCors(app, ctx.options);
  // Before every route: the Host allowlist, and the token when the server has one.
  registerExposureGuards(app, ctx.options);
  // API answers (JSON, NDJSON, SSE) are read as what they say they are, and never kept by a shared cache:
  // they carry claims, sources and audits of what one user asked.
  app.addHook('onSend', async (req, reply) => {
    if (!req.url.startsWith('/v1/')) return;
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0]}` }));

  for (const route of API_ROUTES) route.register(app, ctx);
  registerStatic(app);
  return app;
}
