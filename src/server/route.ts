/**
 * A route = its documentation (method, path, schemas, responses) + its handler. The app registers the
 * handler and validates the inputs with the documented schemas before calling it; openapi.ts builds the
 * document from the same objects. Paths are written in OpenAPI form (`/v1/audits/{id}`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ServerContext } from './context.js';
import { ErrorResponse } from './schemas.js';
import { parseInput } from './validate.js';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDoc {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description?: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  responses: Record<number, ResponseDoc>;
}

export interface RouteInput<B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
}

export interface ApiRoute {
  doc: RouteDoc;
  register(app: FastifyInstance, ctx: ServerContext): void;
}

export function defineRoute<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
  doc: Omit<RouteDoc, 'body' | 'query' | 'params'> & { body?: B; query?: Q; params?: P },
  handler: (ctx: ServerContext, input: RouteInput<B, Q, P>, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): ApiRoute {
  return {
    doc,
    register(app, ctx) {
      app.route({
        method: doc.method,
        url: doc.path.replace(/\{(\w+)\}/g, ':$1'),
        handler: async (req, reply) => {
          const input = {
            body: doc.body ? parseInput(doc.body, req.body, 'body') : undefined,
            query: doc.query ? parseInput(doc.query, req.query, 'query') : undefined,
            params: doc.params ? parseInput(doc.params, req.params, 'params') : undefined,
          } as RouteInput<B, Q, P>;
          return handler(ctx, input, req, reply);
        },
      });
    },
  };
}

/** Standard error responses, for the document. */
export function errorResponses(...codes: number[]): Record<number, ResponseDoc> {
  const text: Record<number, string> = {
    400: 'Invalid request: `issues[].path` names the offending field.',
    404: 'No such resource.',
    413: 'Request body larger than the server\'s --body-limit.',
    503: 'Queue full or shutting down; retry after the Retry-After header\'s seconds.',
    504: 'The request did not finish within the server\'s request timeout.',
  };
  return Object.fromEntries(codes.map((c) => [c, { description: text[c] ?? 'Error.', schema: ErrorResponse }]));
}
