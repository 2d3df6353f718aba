/**
 * The OpenAPI 3.1 document, generated from the routes' own zod schemas (z.toJSONSchema): the schemas
 * that validate requests are the ones documented. Named schemas (`.meta({ id })`) become
 * `components.schemas` entries and are referenced, not repeated.
 */
import { z } from 'zod';
import { VERACITE_VERSION } from '../provenance/version.js';
import { AnnotationSchema } from '../annotations/types.js';
import type { ApiRoute } from './route.js';

type Json = Record<string, unknown>;

class Components {
  readonly schemas: Record<string, Json> = {};

  /** JSON Schema of `schema` with its named parts hoisted into components. */
  add(schema: z.ZodType, io: 'input' | 'output'): Json {
    const raw = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
    const text = JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $schema: _s, $defs, ...rest } = JSON.parse(text) as Json & { $defs?: Record<string, Json> };
    for (const [id, def] of Object.entries($defs ?? {})) this.schemas[id] ??= def;
    return rest;
  }
}

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path', components: Components): Json[] {
  if (!schema) return [];
  const s = components.add(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop as Json & { description?: string };
    const p: Json = { name, in: where, required: where === 'path' || (s.required ?? []).includes(name), schema: rest };
    if (description) p.description = description;
    return p;
  });
}

export function buildOpenApi(routes: ApiRoute[]): Json {
  const components = new Components();
  const paths: Record<string, Record<string, Json>> = {};
  for (const { doc } of routes) {
    const op: Json = {
      operationId: `${doc.method.toLowerCase()}${doc.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: doc.summary,
      tags: [doc.tag],
    };
    if (doc.description) op.description = doc.description;
    const params = [...parameters(doc.params, 'path', components), ...parameters(doc.query, 'query', components)];
    if (params.length) op.parameters = params;
    if (doc.body) op.requestBody = { required: true, content: { 'application/json': { schema: components.add(doc.body, 'input') } } };
    op.responses = Object.fromEntries(
      Object.entries(doc.responses).map(([code, r]) => {
        const out: Json = { description: r.description };
        if (r.schema) out.content = { [r.contentType ?? 'application/json']: { schema: components.add(r.schema, 'output') } };
        else if (r.contentType) out.content = { [r.contentType]: {} };
        return [code, out];
      }),
    );
    (paths[doc.path] ??= {})[doc.method.toLowerCase()] = op;
  }
  // The export's lines are Annotation objects: documented though no route returns one as JSON.
  components.add(AnnotationSchema, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'veracite API',
      version: VERACITE_VERSION,
      description: 'Check claims against evidence: verify claims, check and audit citations (SIDE), search the index, annotate blind source comparisons.',
    },
    paths,
    components: { schemas: components.schemas },
  };
}
