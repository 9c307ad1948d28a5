// Deeply nested JSON is refused, never a 500, on the bodies not covered by the push and relay suites: the
// organization API and MCP. A real server (startWarden) on each storage dialect. (Push: hardening-push; relay
// batches, judged result by result: hardening-relay.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/domain/json-depth.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const CONFIG = 'organization: { key: acme, name: Acme }';
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const TOO_DEEP = { path: 'body', message: `nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects` };

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`deeply nested JSON bodies (${dialect.name})`, () => {
    let s: SeededWarden;
    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
    });
    afterAll(async () => {
      await s?.close();
    });

    const api = (method: string, path: string, body: string) =>
      fetch(`${s.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json' },
        body,
      });
    const mcp = (body: string) =>
      fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });

    it('answers an organization API body nested past 400 levels with 400 naming body, and creates nothing', async () => {
      const monitor = (config: string) => `{"key":"web","name":"Web","type":"http","config":${config}}`;
      for (const [method, path, body] of [
        ['POST', '/api/v1/monitors', monitor(`{"url":"https://example.com","headers":${nested(100_000)}}`)],
        ['POST', '/api/v1/monitors', monitor(`{"url":"https://example.com","x":${nested(JSON_MAX_DEPTH)}}`)],
        ['POST', '/api/v1/pages', nested(120_000)],
        ['PATCH', '/api/v1/monitors/mon_nosuchmonitor0000', `{"config":${nested(50_000)}}`],
      ] as const) {
        const res = await api(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect((await res.json()).errors).toEqual([TOO_DEEP]);
      }
      // At the limit the body is read, and judged on its fields.
      const atLimit = await api(
        'POST',
        '/api/v1/monitors',
        monitor(`{"url":"https://example.com","x":${nested(JSON_MAX_DEPTH - 2)}}`),
      );
      expect(atLimit.status).toBe(400);
      expect((await atLimit.json()).errors).not.toContainEqual(TOO_DEEP);
      expect(await s.opened.store.monitors.list(s.organizationId)).toEqual([]);
    });

    it('answers an MCP body nested past 400 levels with a JSON-RPC error, and still serves MCP', async () => {
      const res = await mcp(
        `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":${nested(30_000)}}}}`,
      );
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answer.error.message).toContain(`nested deeper than ${JSON_MAX_DEPTH} levels`);
      const fine = await mcp('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
      expect(fine.status).toBe(200);
      expect((await fine.json()).result.tools.length).toBeGreaterThan(0);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    });
  });
