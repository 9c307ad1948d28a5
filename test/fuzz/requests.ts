// Requests to every route of the OpenAPI document (and the routes it does not list), from its schemas, with credentials and mutations.
import fc from 'fast-check';
import { type FramedRequest, framingArbitrary } from './framing.js';
import {
  type JsonSchema,
  type KnownValues,
  type OpenApiDocument,
  type OpenApiOperation,
  schemaArbitrary,
} from './schema-arbitrary.js';
import type { Credentials, FuzzServer } from './server.js';

/** One request as the fuzzer sends it: through node:http, or as raw bytes on a TCP connection (bad framing). */
export type FuzzRequest = HttpRequest | FramedRequest;

export interface HttpRequest {
  kind: 'http';
  method: string;
  /** Path and query, already percent-encoded (or deliberately not quite). */
  target: string;
  headers: Record<string, string>;
  /** Built when sent: huge bodies are not held for a whole batch. */
  body: BodySpec | null;
  /** What was done to the request, for the report. */
  mutation: string;
  /** The route it was generated for: "GET /s/{slug}". */
  route: string;
}

/** A body as a recipe: JSON of a value, or JSON with a twist that a value cannot express. */
export type BodySpec =
  | { type: 'json'; value: unknown }
  | { type: 'deep'; depth: number; open: '[' | '{"a":' }
  | { type: 'huge-string'; bytes: number }
  | { type: 'huge-array'; items: number }
  | { type: 'bytes'; bytes: readonly number[] }
  | { type: 'text'; text: string };

export interface Route {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** Routes the document does not describe, with what they take. */
const UNLISTED: Route[] = [
  { method: 'get', path: '/healthz', operation: {} },
  { method: 'head', path: '/healthz', operation: {} },
  { method: 'get', path: '/readyz', operation: {} },
  { method: 'get', path: '/api/openapi.json', operation: {} },
  { method: 'get', path: '/docs', operation: {} },
  { method: 'get', path: '/docs/init.js', operation: {} },
  { method: 'get', path: '/', operation: {} },
  { method: 'get', path: '/embed', operation: {} },
  { method: 'post', path: '/login', operation: {} },
  {
    method: 'post',
    path: '/s/{slug}/login',
    operation: { parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }] },
  },
];

export function routeLabel(route: Route): string {
  return `${route.method.toUpperCase()} ${route.path}`;
}

export function routesOf(doc: OpenApiDocument): Route[] {
  const listed = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method, path, operation })),
  );
  return [...listed, ...UNLISTED];
}

const ODD_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'PROPFIND',
  'PURGE',
  'X-WARDEN',
  'M-SEARCH',
];
const ODD_SEGMENTS = [
  '',
  '%',
  '%zz',
  '%ff%fe',
  '%00',
  '%2F',
  '..',
  '%2e%2e',
  '.',
  'a%20b',
  '%F0%9F%92%A9',
  'x'.repeat(5000),
  '%C3%28',
  'null',
  '0',
  '-1',
];
const ODD_HOSTS = [
  '',
  'status.alpha.test',
  'status.beta.test',
  'STATUS.ALPHA.TEST.',
  'evil.test',
  '127.0.0.1',
  '[::1]',
  'localhost:1',
  'h'.repeat(300),
  'a..b',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/problem+json',
  'application/json;;;=',
  '*/*',
  'x',
];
const ACCEPTS = [
  '*/*',
  'text/html',
  'text/markdown',
  'application/json',
  'application/json, text/event-stream',
  'text/event-stream',
  'image/*',
  'x/y;q=abc',
];

export function knownValues(server: FuzzServer): KnownValues {
  return {
    strings: [
      ...server.names,
      server.credentials.pushA,
      server.credentials.pushB,
      'alpha',
      'beta',
      'alpha-vault',
      'lab',
      'beat',
      'up',
      'down',
    ],
    // Nothing here reaches past this machine: loopback, and names that never resolve (.test, .invalid).
    urls: [
      'http://127.0.0.1:1/',
      'https://example.test/x',
      'http://[::1]:1/',
      'http://fuzz.invalid/latest',
      'ftp://example.test/',
    ],
    hosts: ['127.0.0.1', 'localhost', 'example.test', '::1', 'fuzz.invalid'],
  };
}

/** Any request the fuzzer sends: well-formed ones through node:http most of the time, raw framing the rest. */
export function requestArbitrary(server: FuzzServer): fc.Arbitrary<FuzzRequest> {
  const known = knownValues(server);
  const routes = routesOf(server.doc).map((route) => routeArbitrary(route, server, known));
  return fc.oneof(
    { weight: 17, arbitrary: fc.oneof(...routes) },
    { weight: 3, arbitrary: framingArbitrary(server, fc.oneof(...routes)) },
  );
}

function routeArbitrary(route: Route, server: FuzzServer, known: KnownValues): fc.Arbitrary<HttpRequest> {
  const parameters = route.operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const bodySchema = route.operation.requestBody?.content['application/json']?.schema;
  const form = route.path.endsWith('/login');
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(route.method.toUpperCase()) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
      ),
      path: pathArbitrary(route.path, pathParams, server.doc, known),
      query: queryArbitrary(queryParams, server.doc, known),
      auth: authArbitrary(server.credentials, route),
      headers: headersArbitrary(),
      body: form ? formBodyArbitrary(server.credentials) : bodyArbitrary(bodySchema, server.doc, known),
    })
    .map(({ method, path, query, auth, headers, body: generated }) => {
      const body = route.method === 'post' && route.path === '/api/v1/monitors' ? disabled(generated) : generated;
      const all: Record<string, string> = { ...headers.values, ...(auth ? { authorization: auth } : {}) };
      if (body.spec && !('content-type' in all))
        all['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      const mutation = [
        headers.mutation,
        body.mutation,
        method === route.method.toUpperCase() ? '' : `method ${method}`,
      ]
        .filter(Boolean)
        .join(', ');
      return {
        kind: 'http',
        method,
        target: path + query,
        headers: all,
        body: body.spec,
        mutation: mutation || 'valid',
        route: routeLabel(route),
      } satisfies HttpRequest;
    });
}

function pathArbitrary(
  template: string,
  params: NonNullable<OpenApiOperation['parameters']>,
  doc: OpenApiDocument,
  known: KnownValues,
) {
  const values = params.map((param) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...known.strings) },
      { weight: 3, arbitrary: schemaArbitrary(param.schema, doc, known).map((v) => encodeURIComponent(String(v))) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    ),
  );
  return fc
    .tuple(...values)
    .map((segments) =>
      params.reduce((path, param, i) => path.replace(`{${param.name}}`, String(segments[i])), template),
    );
}

function queryArbitrary(params: NonNullable<OpenApiOperation['parameters']>, doc: OpenApiDocument, known: KnownValues) {
  const pairs = params.map((param) =>
    fc.option(
      fc.oneof(
        {
          weight: 4,
          arbitrary: schemaArbitrary(param.schema, doc, known).map(
            (v) => `${param.name}=${encodeURIComponent(String(v))}`,
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS).map((v) => `${param.name}=${v}`) },
        { weight: 1, arbitrary: fc.constant(`${param.name}=1&${param.name}=2`) },
      ),
      { freq: 2 },
    ),
  );
  const extra = fc.option(
    fc.constantFrom('x=1', '=', '&&', '%', 'a[b]=c', `q=${'z'.repeat(8000)}`, 'live=1', 'theme=dark'),
    { freq: 6 },
  );
  return fc.tuple(fc.tuple(...pairs), extra).map(([given, more]) => {
    const parts = [...given, more].filter((p): p is string => p !== null);
    return parts.length === 0 ? '' : `?${parts.join('&')}`;
  });
}

/** Mostly the credential the route takes (an API key, a relay token, a page password), sometimes another, none or a broken one. */
function authArbitrary(c: Credentials, route: Route): fc.Arbitrary<string | null> {
  const schemes = (route.operation.security ?? []).flatMap((s) => Object.keys(s));
  const own = schemes.includes('apiKey')
    ? [c.readA, c.writeA, c.readB, c.writeB]
    : schemes.includes('relayToken')
      ? [c.relayA, c.relayB]
      : [c.pagePasswordA, c.pagePasswordB];
  const any = [c.readA, c.writeA, c.readB, c.writeB, c.relayA, c.relayB, c.pushA, c.pagePasswordA, c.pagePasswordB];
  const odd = [
    'Bearer',
    'Bearer ',
    'Bearer wdn_nope',
    `Bearer ${c.writeA}x`,
    `bearer ${c.writeA}`,
    `Basic ${Buffer.from(`x:${c.pagePasswordA}`).toString('base64')}`,
    `Bearer ${'k'.repeat(9000)}`,
    'Digest x',
  ];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom(...own.map((s) => `Bearer ${s}`)) },
    { weight: 2, arbitrary: fc.constantFrom(...any.map((s) => `Bearer ${s}`)) },
    { weight: 1, arbitrary: fc.constantFrom(...odd) },
  );
}

function headersArbitrary(): fc.Arbitrary<{ values: Record<string, string>; mutation: string }> {
  const odd = fc.oneof(
    fc.constantFrom(...ODD_HOSTS).map((v) => ['host', v]),
    fc.constantFrom(...CONTENT_TYPES).map((v) => ['content-type', v]),
    fc.constantFrom(...ACCEPTS).map((v) => ['accept', v]),
    fc.constantFrom('1.2.3.4', 'x, y', '::1', ' , ,', 'a'.repeat(2000)).map((v) => ['x-forwarded-for', v]),
    fc.constantFrom('"x"', '*', 'W/"', '"'.repeat(500)).map((v) => ['if-none-match', v]),
    fc.constantFrom('https://evil.test', 'null', '*').map((v) => ['origin', v]),
    fc
      .constantFrom('warden_page=abc', 'warden_page_alpha-vault=1.2.3', `x=${'c'.repeat(4000)}`)
      .map((v) => ['cookie', v]),
    fc.constantFrom('gzip', 'br', 'x').map((v) => ['accept-encoding', v]),
    fc.constantFrom('2024-11-05', 'x').map((v) => ['mcp-protocol-version', v]),
    fc.constantFrom('id-1', 'x'.repeat(300)).map((v) => ['x-request-id', v]),
  );
  return fc.array(odd, { maxLength: 3 }).map((pairs) => ({
    values: Object.fromEntries(pairs),
    mutation: pairs.length === 0 ? '' : `headers ${pairs.map(([name]) => name).join(' ')}`,
  }));
}

function formBodyArbitrary(c: Credentials): fc.Arbitrary<{ spec: BodySpec | null; mutation: string }> {
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

function bodyArbitrary(
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
function disabled(body: { spec: BodySpec | null; mutation: string }): { spec: BodySpec | null; mutation: string } {
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
