/**
 * Request validation: the same zod schemas that the OpenAPI document is generated from (schemas.ts)
 * parse every body, query and path, so the document and the checks cannot drift apart.
 */
import type { z } from 'zod';
import { issuesOf, ValidationError } from './errors.js';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params'): z.output<S> {
  const r = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!r.success) throw new ValidationError(where, issuesOf(r.error));
  return r.data;
}
