/**
 * Checks on the fields of one JSON record. A problem throws `FieldError` naming the field; the reader loop
 * turns it into a `RecordError` with file and line and goes on with the next line.
 */

export type JsonObject = Record<string, unknown>;

export class FieldError extends Error {
  constructor(
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    super(problem);
    this.name = 'FieldError';
  }
}

export function parseObject(text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FieldError(undefined, `invalid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FieldError(undefined, `expected a JSON object, found ${describe(value)}`);
  }
  return value as JsonObject;
}

/** A document id: a non-empty string, or an integer (SciFact's `doc_id`), returned as a string. */
export function idField(obj: JsonObject, field: string): string {
  const v = obj[field];
  if (v === undefined || v === null) throw new FieldError(field, 'missing');
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v !== 'string') throw new FieldError(field, `expected a string or an integer, found ${describe(v)}`);
  if (v.length === 0) throw new FieldError(field, 'empty id');
  return v;
}

export function stringField(obj: JsonObject, field: string): string {
  const v = obj[field];
  if (v === undefined || v === null) throw new FieldError(field, 'missing');
  if (typeof v !== 'string') throw new FieldError(field, `expected a string, found ${describe(v)}`);
  return v;
}

/** Absent and null both mean "not given". */
export function optionalString(obj: JsonObject, field: string): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new FieldError(field, `expected a string, found ${describe(v)}`);
  return v;
}

export function stringArrayField(obj: JsonObject, field: string): string[] {
  const v = obj[field];
  if (v === undefined || v === null) throw new FieldError(field, 'missing');
  return checkStringArray(v, field);
}

export function optionalStringArray(obj: JsonObject, field: string): string[] | undefined {
  const v = obj[field];
  return v === undefined || v === null ? undefined : checkStringArray(v, field);
}

function checkStringArray(v: unknown, field: string): string[] {
  if (!Array.isArray(v)) throw new FieldError(field, `expected an array of strings, found ${describe(v)}`);
  for (let i = 0; i < v.length; i++) {
    if (typeof v[i] !== 'string') throw new FieldError(`${field}[${i}]`, `expected a string, found ${describe(v[i])}`);
  }
  return v as string[];
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
