/**
 * fast-check arbitraries from the JSON Schema that zod writes for the API's request schemas (the same
 * z.toJSONSchema output the OpenAPI document is made of), generating values that are valid, at the
 * bounds, and just past them. zod-fast-check would be the library for this, but it supports zod 3 and
 * fast-check 3 only (this project has zod 4 and fast-check 4), so this walks the handful of JSON Schema
 * keywords our schemas use: object, string (lengths, uri, uuid, enum), integer, array, anyOf, $ref.
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;
type Arb = fc.Arbitrary<unknown>;

export interface SchemaArbOptions {
  /** Extra values for a property, by name (e.g. a real job id for `id`), mixed in with the generated ones. */
  hints?: Record<string, Arb>;
  /** Longest string generated in full; longer bounds get one over-long constant string instead. */
  maxGeneratedLength?: number;
  /** Only values the schema accepts (as far as its keywords tell), no edge or wrong-type values. */
  strict?: boolean;
}

/** Strings a person or a script might send: unicode of every kind, whitespace, markup, control bytes. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.lorem({ maxCount: 12 }),
  fc.constantFrom('', ' ', '\t\n', '\u0000', '\uFEFF', '\uD800', 'a\u0301', '💥'.repeat(20), '<script>alert(1)</script>', "' OR 1=1 --", '{{cite web|url=}}', '[[', '</ref>', '%00', '../../etc/passwd', 'NaN', 'null', 'AND OR NOT', '"unterminated', '*', '~1', '+-&&||!(){}[]^"~*?:\\/'),
);

function stringArb(s: Json, opts: SchemaArbOptions): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const cap = opts.maxGeneratedLength ?? 3000;
  if (Array.isArray(s.enum)) return opts.strict ? fc.constantFrom(...(s.enum as string[])) : fc.oneof(fc.constantFrom(...(s.enum as string[])), nastyString);
  if (s.format === 'uuid') return opts.strict ? fc.uuid() : fc.oneof(fc.uuid(), nastyString);
  if (s.format === 'uri') {
    if (opts.strict) return fc.webUrl({ validSchemes: ['http', 'https'] }).filter((u) => u.length <= (max ?? 2000));
    return fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom('ftp://example.org/x', 'javascript:alert(1)', 'http://127.0.0.1:9/', 'http://[::1]/', 'https://example.org/' + 'a'.repeat(2000), 'http://', 'file:///etc/passwd'),
      nastyString,
    );
  }
  const sized = fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max ?? 200, 200) });
  if (opts.strict) return fc.oneof(sized.filter((x) => x.trim().length >= min), fc.lorem({ maxCount: 30 }).filter((x) => x.length >= min && x.length <= (max ?? Infinity)));
  const edges: fc.Arbitrary<string>[] = [fc.constant('   ')];
  if (max !== undefined) {
    if (max <= cap) edges.push(fc.constant('a'.repeat(max)), fc.constant('b '.repeat(max).slice(0, max + 1)));
    else edges.push(fc.constant('c'.repeat(max + 1)));
  }
  return fc.oneof({ weight: 4, arbitrary: sized }, { weight: 2, arbitrary: fc.lorem({ maxCount: 30 }) }, { weight: 2, arbitrary: nastyString }, { weight: 1, arbitrary: fc.oneof(...edges) });
}

function numberArb(s: Json, integer: boolean, strict: boolean): Arb {
  const min = typeof s.minimum === 'number' ? s.minimum : -1e6;
  const max = typeof s.maximum === 'number' ? s.maximum : 1e6;
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  if (strict) return inRange;
  return fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2) },
    { weight: 1, arbitrary: fc.oneof(fc.constant('7'), fc.constant(' 3 '), fc.constant('1e2'), fc.constant('0x10'), fc.constant(true), fc.constant(null)) },
  );
}

/** Values for `schema`; `defs` are its $defs (z.toJSONSchema puts named schemas there). */
export function arbitraryOf(schema: Json, opts: SchemaArbOptions = {}, defs: Record<string, Json> = (schema.$defs as Record<string, Json>) ?? {}, name?: string): Arb {
  const hint = name ? opts.hints?.[name] : undefined;
  const base = ((): Arb => {
    if (typeof schema.$ref === 'string') return arbitraryOf(defs[schema.$ref.split('/').pop()!]!, opts, defs, name);
    const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (union) return fc.oneof(...union.map((s) => arbitraryOf(s, opts, defs, name)));
    if ('const' in schema) return fc.constant(schema.const);
    switch (schema.type) {
      case 'string':
        return stringArb(schema, opts);
      case 'integer':
        return numberArb(schema, true, !!opts.strict);
      case 'number':
        return numberArb(schema, false, !!opts.strict);
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = arbitraryOf((schema.items as Json) ?? {}, opts, defs);
        const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : 8;
        if (opts.strict) return fc.array(items, { minLength, maxLength: Math.min(maxItems, 6) });
        return fc.oneof(
          { weight: 4, arbitrary: fc.array(items, { minLength, maxLength: Math.min(maxItems, 6) }) },
          { weight: 1, arbitrary: fc.array(items, { minLength: maxItems, maxLength: maxItems + 1, size: 'max' }) },
        );
      }
      case 'object': {
        const props = (schema.properties as Record<string, Json>) ?? {};
        const required = (schema.required as string[]) ?? [];
        const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arbitraryOf(v, opts, defs, k)]));
        return fc.record(model, { requiredKeys: required.filter((k) => k in model) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return hint ? fc.oneof(base, hint) : base;
}

/**
 * Around a valid object: a required field dropped, a field given a value of any JSON type, an unknown field
 * added, prototype-pollution keys, the whole body replaced by another JSON value.
 */
export function mutatedObject(valid: Arb): Arb {
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 3 })).map(([v, i, x]) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
        const keys = Object.keys(v);
        if (!keys.length) return x;
        return { ...v, [keys[i % keys.length]!]: x };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.nat()).map(([v, i]) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
        const keys = Object.keys(v);
        const out = { ...(v as Json) };
        if (keys.length) delete out[keys[i % keys.length]!];
        return out;
      }),
    },
    { weight: 1, arbitrary: fc.tuple(valid, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([v, k, x]) => (v && typeof v === 'object' ? { ...(v as Json), [k || 'extra']: x } : v)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

/** Raw body texts that are not (quite) JSON, or JSON that parsers treat specially. */
export const rawBodies: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '{"claim": ',
    'null',
    '[]',
    '"claim"',
    '{"__proto__": {"polluted": 1}, "claim": "x"}',
    '{"constructor": {"prototype": {"polluted": 1}}}',
    '{"claim": "x", "claim": "y"}',
    '{"claim": "\\ud800"}',
    '{"claims": ' + '['.repeat(2000) + ']'.repeat(2000) + '}',
    '\uFEFF{"claim": "bom"}',
    '{"claim": 1e99999}',
  ),
);
