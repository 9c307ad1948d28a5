// The OpenAPI document: valid, complete, equal to the committed client types, and usable by a client generated from it.
import SwaggerParser from '@apidevtools/swagger-parser';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, BASE_URL, openApiHarness, T0 } from '../../test/api-app.js';
import { dialects } from '../../test/store-dialects.js';
import { API_SCHEMA_FILE, apiSchemaSource } from '../../web/scripts/generate-api-schema.js';
import type { paths } from '../../web/src/api/schema.js';
import { MONITOR_TYPES } from '../domain/monitor-type.js';

type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<string, { security?: Record<string, string[]>[]; responses: Record<string, unknown>; tags?: string[] }>
  >;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    responses: Record<string, unknown>;
  };
};

// The document is built from the schemas, not from the store: one dialect is enough.
describe('GET /api/openapi.json', () => {
  let h: ApiHarness;
  let doc: Document;
  beforeAll(async () => {
    h = await openApiHarness(dialects[0] as (typeof dialects)[number]);
    const res = await h.call('GET', '/api/openapi.json', { key: null });
    expect(res.status).toBe(200);
    doc = await res.json();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('declares OpenAPI 3.1.0 and version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('is valid according to an independent validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('declares the API key and relay token schemes and the shared Problem schema and responses', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer' },
      relayToken: { type: 'http', scheme: 'bearer' },
    });
    expect(doc.components.schemas.Problem).toBeDefined();
    expect(Object.keys(doc.components.responses)).toEqual(
      expect.arrayContaining(['BadRequest', 'Unauthorized', 'NotFound', 'TooManyRequests']),
    );
  });

  it('describes every organization API route the server answers, with its key and its errors', () => {
    const served = h.app.routes
      // /api/v1/auth/* is the user's (a session cookie or nobody, no API key): documented under the Account tag instead.
      .filter(
        (r) =>
          r.method !== 'ALL' &&
          r.path.startsWith('/api/v1/') &&
          !r.path.startsWith('/api/v1/status') &&
          !r.path.startsWith('/api/v1/auth/'),
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(served.length).toBeGreaterThanOrEqual(35);
    expect(documented).toEqual(expect.arrayContaining(served));
    // A signed-in user creates an organization: the session cookie's, like /api/v1/auth/* (no organization yet, no key).
    expect(doc.paths['/api/v1/organizations']?.post?.security).toEqual([{ session: [] }]);
    // The built-in demo is nobody's organization: only a signed-in user who owns every other one may remove it.
    const sessionOnly = ['post /api/v1/organizations', 'get /api/v1/demo', 'delete /api/v1/demo'];
    for (const entry of sessionOnly.slice(1))
      expect(doc.paths['/api/v1/demo']?.[entry.split(' ')[0] as string]?.security, entry).toEqual([{ session: [] }]);
    for (const entry of served.filter((e) => !sessionOnly.includes(e))) {
      const [method, path] = entry.split(' ') as [string, string];
      const operation = doc.paths[path]?.[method];
      expect(operation?.security, entry).toEqual([{ apiKey: [] }]);
      expect(Object.keys(operation?.responses ?? {}), entry).toEqual(expect.arrayContaining(['401', '429']));
      expect(operation?.tags, entry).toHaveLength(1);
    }
  });

  it('documents every /api/v1/auth route under the Account tag', () => {
    const served = h.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/auth/'))
      .map((r) => [r.method.toLowerCase(), r.path.replace(/:(\w+)/g, '{$1}')] as const);
    expect(served.map(([, path]) => path)).toContain('/api/v1/auth/oidc/callback');
    for (const [method, path] of served)
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['Account']);
    // Public (sign-in, setup, previews) or the session cookie: never an API key.
    for (const [method, path] of served)
      expect([[], [{ session: [] }]], `${method} ${path}`).toContainEqual(doc.paths[path]?.[method]?.security ?? []);
    expect(doc.paths['/api/v1/auth/me']?.get?.security).toEqual([{ session: [] }]);
    expect(doc.components.securitySchemes.session).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'warden_session' }),
    );
  });

  it('documents the history window and the monitor body of every type', () => {
    const history = doc.paths['/api/v1/monitors/{id}/history']?.get as unknown as {
      parameters: { name: string; schema: object }[];
    };
    expect(history.parameters.find((p) => p.name === 'hours')?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 2160,
      default: 24,
    });
    const create = doc.components.schemas.MonitorCreate as { oneOf: { properties: { type: { enum: string[] } } }[] };
    expect(create.oneOf.map((v) => v.properties.type.enum[0])).toContain('minecraft-java');
    expect(create.oneOf).toHaveLength(MONITOR_TYPES.length);
  });

  it('matches the client types generated from it, for the dashboard and the tests (regenerate: npm run gen:api, or -u here)', async () => {
    await expect(await apiSchemaSource(structuredClone(doc))).toMatchFileSnapshot(API_SCHEMA_FILE);
  });
});

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`a client generated from the document on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('creates a page and a monitor, and reads the history', async () => {
      const client = createClient<paths>({
        baseUrl: BASE_URL,
        headers: { authorization: `Bearer ${h.a.writeKey}` },
        fetch: (request) => Promise.resolve(h.app.fetch(request)),
      });

      const page = await client.POST('/api/v1/pages', { body: { slug: 'from-client', title: 'From the client' } });
      expect(page.response.status).toBe(201);
      expect(page.data?.slug).toBe('from-client');

      const monitor = await client.POST('/api/v1/monitors', {
        body: { key: 'client-beat', name: 'Client heartbeat', type: 'heartbeat', config: { graceSec: 120 } },
      });
      expect(monitor.response.status).toBe(201);
      const created = monitor.data;
      if (!created) throw new Error('no monitor');
      expect(created.pushToken).toMatch(/^wdp_/);

      const component = await client.POST('/api/v1/pages/{slug}/components', {
        params: { path: { slug: 'from-client' } },
        body: { name: 'Backups', monitor: created.key },
      });
      expect(component.data?.monitorId).toBe(created.id);

      await h.ingest.record({
        monitorId: created.id,
        ok: true,
        latencyMs: 12,
        data: { players: 4 },
        source: 'push',
        checkedAt: T0 - 60_000,
      });
      const history = await client.GET('/api/v1/monitors/{id}/history', {
        params: { path: { id: created.id }, query: { hours: 2 } },
      });
      expect(history.response.status).toBe(200);
      expect(history.data?.checks).toHaveLength(1);
      expect(history.data?.buckets[0]).toMatchObject({ count: 1, upCount: 1, uptime: 1, playersMax: 4 });
      expect(history.data?.uptime).toBe(1);

      const invalid = await client.GET('/api/v1/monitors/{id}/history', {
        params: { path: { id: created.id }, query: { hours: 5000 } },
      });
      expect(invalid.response.status).toBe(400);
      expect(invalid.error).toMatchObject({ status: 400, errors: [{ path: 'query.hours' }] });
    });
  });
