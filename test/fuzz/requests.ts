// Requests to every route of the OpenAPI document (and the routes it does not list), from its schemas, with credentials and mutations.
import fc from 'fast-check';
import { bodyArbitrary, disabled, formBodyArbitrary } from './bodies.js';
import { type FramedRequest, framingArbitrary } from './framing.js';
import { authArbitrary, headersArbitrary } from './headers.js';
import { type KnownValues, type OpenApiDocument, type OpenApiOperation, schemaArbitrary } from './schema-arbitrary.js';
import type { FuzzServer } from './server.js';

export { bodyBytes } from './bodies.js';

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
