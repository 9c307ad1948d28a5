// fast-check arbitraries from the JSON Schemas of the OpenAPI document: values a schema accepts, biased towards the ones a route knows.
import fc from 'fast-check';

export type JsonSchema = { [key: string]: unknown };
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}
export interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
}

/** Values that mean something to the seeded server (slugs, ids, hosts): strings are drawn from them often. */
export interface KnownValues {
  strings: readonly string[];
  urls: readonly string[];
  hosts: readonly string[];
}

/** Generated strings and arrays stay this small; huge ones are the mutations' business. */
const MAX_STRING = 40;
const MAX_ITEMS = 4;
/** Nesting of generated objects before only leaves are drawn (the schemas of bodies are shallow; `data` records are not). */
const MAX_DEPTH = 5;

export function schemaArbitrary(
  schema: JsonSchema | undefined,
  doc: OpenApiDocument,
  known: KnownValues,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || Object.keys(schema).length === 0 || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 1 });
  const ref = schema.$ref;
  if (typeof ref === 'string') return schemaArbitrary(resolve(ref, doc), doc, known, depth);
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options)
    return fc.oneof(
      ...options.map((option) =>
        schemaArbitrary({ ...without(schema, 'anyOf', 'oneOf'), ...option }, doc, known, depth),
      ),
    );
  if (schema.allOf) return schemaArbitrary(Object.assign({}, ...(schema.allOf as JsonSchema[])), doc, known, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = schema.type;
  if (Array.isArray(type))
    return fc.oneof(...type.map((t) => schemaArbitrary({ ...schema, type: t }, doc, known, depth)));
  switch (type) {
    case 'string':
      return stringArbitrary(schema, known);
    case 'integer':
      return fc.integer({
        min: bound(schema.minimum, bound(schema.exclusiveMinimum, -1_000_001) + 1),
        max: bound(schema.maximum, 1_000_000),
      });
    case 'number':
      return fc.double({
        min: bound(schema.minimum, -1e6),
        max: bound(schema.maximum, 1e6),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaArbitrary(schema.items as JsonSchema, doc, known, depth + 1), {
        minLength: Math.min(bound(schema.minItems, 0), MAX_ITEMS),
        maxLength: Math.min(bound(schema.maxItems, MAX_ITEMS), MAX_ITEMS),
      });
    case 'object':
      return objectArbitrary(schema, doc, known, depth);
    default:
      return schema.properties ? objectArbitrary(schema, doc, known, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(
  schema: JsonSchema,
  doc: OpenApiDocument,
  known: KnownValues,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, schemaArbitrary(property, doc, known, depth + 1)]),
  );
  const fixed = fc.record(model, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length > 0 || extra === false || extra === undefined) return fixed;
  const values =
    extra === true ? fc.jsonValue({ maxDepth: 2 }) : schemaArbitrary(extra as JsonSchema, doc, known, depth + 1);
  return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys: MAX_ITEMS });
}

function stringArbitrary(schema: JsonSchema, known: KnownValues): fc.Arbitrary<string> {
  const min = bound(schema.minLength, 0);
  const max = Math.max(min, Math.min(bound(schema.maxLength, MAX_STRING), MAX_STRING));
  const fits = (value: string) =>
    value.length >= min && value.length <= bound(schema.maxLength, Number.MAX_SAFE_INTEGER);
  const candidates: fc.Arbitrary<string>[] = [fc.string({ minLength: min, maxLength: max })];
  const format = schema.format;
  // No generated URL: a made-up one could name a real site.
  if (format === 'uri' || format === 'url') candidates.push(fc.constantFrom(...known.urls));
  if (format === 'date-time') candidates.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  let pool = [...known.strings, ...known.hosts].filter(fits);
  if (typeof schema.pattern === 'string') {
    const regex = new RegExp(schema.pattern);
    const matching = patternArbitrary(regex);
    if (matching) candidates.push(matching.filter(fits), matching.filter(fits));
    pool = pool.filter((value) => regex.test(value));
  }
  if (pool.length > 0) candidates.push(fc.constantFrom(...pool));
  if (typeof schema.example === 'string') candidates.push(fc.constant(schema.example));
  return fc.oneof(...candidates);
}

/** Strings drawn once per pattern: enough variety to pass each field's pattern, drawn ahead of the requests. */
const PATTERN_SAMPLES = 48;
const patternPools = new Map<string, string[] | null>();

/**
 * Strings matching a pattern, from a pool drawn once per pattern with a seed of its own (so a replayed campaign draws
 * the same). fast-check's regex arbitrary costs 1-3 ms a string for patterns such as `^[A-Za-z0-9]{32}$`: drawn per
 * request it was a third of the suite's CPU. The patterns fast-check cannot read (lookaheads) fall back to the other
 * candidates.
 */
function patternArbitrary(regex: RegExp): fc.Arbitrary<string> | undefined {
  let pool = patternPools.get(regex.source);
  if (pool === undefined) {
    try {
      pool = fc.sample(fc.stringMatching(regex), { numRuns: PATTERN_SAMPLES, seed: seedOf(regex.source) });
    } catch {
      pool = null;
    }
    patternPools.set(regex.source, pool);
  }
  return pool && pool.length > 0 ? fc.constantFrom(...pool) : undefined;
}

function seedOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

function resolve(ref: string, doc: OpenApiDocument): JsonSchema {
  const name = ref.replace('#/components/schemas/', '');
  const schema = doc.components.schemas[name];
  if (!schema) throw new Error(`the OpenAPI document has no schema ${ref}`);
  return schema;
}

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function without(schema: JsonSchema, ...keys: string[]): JsonSchema {
  const out = { ...schema };
  for (const key of keys) delete out[key];
  return out;
}
