/** GET /v1/openapi.json. Built once: the routes and schemas do not change while the server runs. */
import { z } from 'zod';
import { buildOpenApi } from '../openapi.js';
import { defineRoute, type ApiRoute } from '../route.js';

export function openApiRoute(routes: () => ApiRoute[]): ApiRoute {
  let doc: Record<string, unknown> | undefined;
  return defineRoute(
    {
      method: 'GET',
      path: '/v1/openapi.json',
      tag: 'service',
      summary: 'This document',
      responses: { 200: { description: 'OpenAPI 3.1 document.', schema: z.record(z.string(), z.unknown()) } },
    },
    async () => (doc ??= buildOpenApi(routes())),
  );
}
