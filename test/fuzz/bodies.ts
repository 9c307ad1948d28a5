// The bodies of the fuzzer's requests: valid ones from a route's schema, each with one thing wrong, sign-in forms, and
// their bytes on the wire.
import fc from 'fast-check';
import type { BodySpec } from './requests.js';
import { type JsonSchema, type KnownValues, type OpenApiDocument, schemaArbitrary } from './schema-arbitrary.js';
import type { Credentials } from './server.js';

export function formBodyArbitrary(c: Credentials): fc.Arbitrary<{ spec: BodySpec | null; mutation: string }> {
  const passwords = [
    c.pagePasswordA,
    c.pagePasswordB,
    'wrong-password',
    '',
    'p'.repeat(100_000),
    '%ff%fe',
    'a&password=b',
  ];
  return fc.oneof(
    fc.constantFrom(...passwords).map((p) => ({
      spec: { type: 'text', text: `password=${encodeURIComponent(p)}` } as BodySpec,
      mutation: 'form',
    })),
    fc.constant({ spec: { type: 'text', text: 'password=%zz' } as BodySpec, mutation: 'form with a bad escape' }),
    mutatedBody(fc.constant({})),
  );
}

export function bodyArbitrary(
  schema: JsonSchema | undefined,
  doc: OpenApiDocument,
  known: KnownValues,
): fc.Arbitrary<{ spec: BodySpec | null; mutation: string }> {
  if (!schema)
    return fc.oneof(
      { weight: 9, arbitrary: fc.constant({ spec: null, mutation: '' }) },
      { weight: 1, arbitrary: mutatedBody(fc.jsonValue({ maxDepth: 2 })) },
    );
  const valid = schemaArbitrary(schema, doc, known);
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((value) => ({ spec: { type: 'json', value } as BodySpec, mutation: '' })) },
    { weight: 5, arbitrary: mutatedBody(valid) },
  );
}

/** A valid value with one thing wrong: a field's type, a missing or extra field, size, depth, encoding, or no JSON at all. */
function mutatedBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ spec: BodySpec | null; mutation: string }> {
  const wrong = fc.constantFrom<unknown>(null, 0, -1, 1e308, 'x', '', true, [], {}, [[]], '[redacted]', { $ref: '#' });
  const json = (value: unknown, mutation: string) => ({ spec: { type: 'json', value } as BodySpec, mutation });
  return fc.oneof(
    fc.tuple(valid, wrong, fc.nat()).map(([v, w, n]) =>
      json(
        replaceField(v, n, () => w),
        'wrong type',
      ),
    ),
    fc.tuple(valid, fc.nat()).map(([v, n]) => json(replaceField(v, n, undefined), 'missing field')),
    fc
      .tuple(valid, fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))
      .map(([v, k, x]) => json(isObject(v) ? { ...v, [`${k}_extra`]: x } : [v, x], 'extra field')),
    wrong.map((w) => json(w, 'wrong body type')),
    fc
      .constantFrom(10_000, 64_000, 300_000, 2_000_000)
      .map((bytes) => ({ spec: { type: 'huge-string', bytes } as BodySpec, mutation: `huge string ${bytes}` })),
    fc
      .constantFrom(1_000, 200_000)
      .map((items) => ({ spec: { type: 'huge-array', items } as BodySpec, mutation: `huge array ${items}` })),
    fc
      .tuple(fc.constantFrom(100, 401, 10_000, 100_000), fc.constantFrom<'[' | '{"a":'>('[', '{"a":'))
      .map(([depth, open]) => ({
        spec: { type: 'deep', depth, open } as BodySpec,
        mutation: `nested ${depth} deep`,
      })),
    fc
      .constantFrom(
        [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d],
        [0x22, 0xc3, 0x28, 0x22],
        [0xef, 0xbb, 0xbf, 0x7b, 0x7d],
        [0xed, 0xa0, 0x80],
      )
      .map((bytes) => ({
        spec: { type: 'bytes', bytes } as BodySpec,
        mutation: 'invalid UTF-8',
      })),
    fc
      .constantFrom(
        '',
        '{',
        '{"a":1',
        'null',
        '\u0000',
        '{"a":1}{"b":2}',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
        'NaN',
        '1e999999',
      )
      .map((text) => ({
        spec: { type: 'text', text } as BodySpec,
        mutation: 'not quite JSON',
      })),
  );
}

/**
 * A monitor the fuzzer creates is disabled, so the server never probes what the generator made up (a Discord monitor
 * left at its default apiBaseUrl would call discord.com). Only `enabled` is fixed; every other field stays generated.
 */
export function disabled(body: { spec: BodySpec | null; mutation: string }): {
  spec: BodySpec | null;
  mutation: string;
} {
  if (body.spec?.type !== 'json' || !isObject(body.spec.value)) return body;
  return { ...body, spec: { type: 'json', value: { ...body.spec.value, enabled: false } } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value with its n-th own field (a top-level key, or an array item) replaced, or removed when `make` is undefined. */
function replaceField(value: unknown, n: number, make: (() => unknown) | undefined): unknown {
  if (!isObject(value) && !Array.isArray(value)) return make ? make() : undefined;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (keys.length === 0) return make ? make() : copy;
  const key = keys[n % keys.length] as string;
  if (make) (copy as Record<string, unknown>)[key] = make();
  else if (Array.isArray(copy)) copy.splice(Number(key), 1);
  else delete copy[key];
  return copy;
}

/** The bytes of a body recipe. */
export function bodyBytes(spec: BodySpec): Buffer {
  switch (spec.type) {
    case 'json':
      return Buffer.from(JSON.stringify(spec.value) ?? 'null');
    case 'deep':
      return Buffer.from(spec.open.repeat(spec.depth) + '1' + (spec.open === '[' ? ']' : '}').repeat(spec.depth));
    case 'huge-string':
      return Buffer.from(`{"msg":"${'x'.repeat(spec.bytes)}","name":"${'y'.repeat(spec.bytes)}"}`);
    case 'huge-array':
      return Buffer.from(`{"results":[${new Array(spec.items).fill('{}').join(',')}]}`);
    case 'bytes':
      return Buffer.from(spec.bytes);
    case 'text':
      return Buffer.from(spec.text);
  }
}
