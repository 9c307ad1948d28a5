import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { aiPagesConfig } from '../../../test/fakes/ai-pages.js';
import { dialects } from '../../../test/store-dialects.js';
import { AI_LIMITS } from '../../services/ai-limits.js';

const START = Date.UTC(2026, 10, 20, 12);
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface RpcAnswer {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`POST /mcp over HTTP on ${dialect.name}`, () => {
    let h: Harness;
    const rpc = (body: unknown, headers: Record<string, string> = {}) =>
      h.request('/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    beforeAll(async () => {
      h = await startHarness(dialect, aiPagesConfig(START), START);
    });
    afterAll(() => h.close());

    it('answers initialize with JSON and 200, and issues no session id', async () => {
      const response = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const answer = (await response.json()) as RpcAnswer;
      expect(answer).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-06-18', serverInfo: { name: 'warden' } },
      });
    });

    it('needs no session: a tools/call works on its own', async () => {
      const response = await rpc(
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get_status', arguments: { slug: 'beta' } } },
        { 'mcp-protocol-version': '2025-06-18' },
      );
      expect(response.status).toBe(200);
      const answer = (await response.json()) as RpcAnswer;
      expect(answer.id).toBe('a');
      expect(answer.result).toMatchObject({ structuredContent: { page: { slug: 'beta' } } });
      expect((answer.result!.content as { type: string; text: string }[])[0]?.text).toMatch(/^# Beta Realm/);
    });

    it('answers JSON-RPC errors with 200: unknown method, unknown tool, invalid arguments, malformed params', async () => {
      const cases: [unknown, number][] = [
        [{ jsonrpc: '2.0', id: 1, method: 'prompts/list' }, -32601],
        [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', arguments: {} } }, -32602],
        [
          {
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name: 'list_incidents', arguments: { slug: 'acme', limit: 500 } },
          },
          -32602,
        ],
        [{ jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} }, -32602],
        [{ jsonrpc: '2.0', id: 5, method: 'resources/read', params: {} }, -32602],
        [{ jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: 5 } }, -32602],
      ];
      for (const [body, code] of cases) {
        const response = await rpc(body);
        expect(response.status).toBe(200);
        const answer = (await response.json()) as RpcAnswer;
        expect(answer.error?.code, JSON.stringify(body)).toBe(code);
        expect(answer.id).toBe((body as { id: number }).id);
      }
      const invalid = (await (await rpc(cases[4]![0])).json()) as RpcAnswer;
      expect(invalid.error?.message).toBe(
        'Invalid resources/read request: params.uri: Invalid input: expected string, received undefined',
      );
    });

    it('accepts a notification with 202 and no body', async () => {
      const response = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });

    it('rejects malformed JSON as a JSON-RPC parse error', async () => {
      const response = await rpc('{"jsonrpc": "2.0", ');
      expect(response.status).toBe(400);
      expect(((await response.json()) as RpcAnswer).error?.code).toBe(-32700);
    });

    it(`caps the body at ${AI_LIMITS.mcpBodyBytes} bytes`, async () => {
      const big = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { pad: 'x'.repeat(AI_LIMITS.mcpBodyBytes) } },
      };
      const response = await rpc(big);
      expect(response.status).toBe(413);
      const small = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(small.status).toBe(200);
    });

    it('answers 405 to GET and DELETE, with Allow and CORS', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await h.request('/mcp', { method, headers: { accept: 'text/event-stream' } });
        expect(response.status, method).toBe(405);
        expect(response.headers.get('allow')).toBe('OPTIONS, POST');
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
      }
    });

    it('answers the CORS preflight for browser clients', async () => {
      const response = await h.request('/mcp', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://agent.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
      expect(response.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version/);
    });

    it('needs an Accept header allowing JSON and event streams (the transport’s rule)', async () => {
      const response = await h.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/html' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(406);
    });

    it('is documented in the OpenAPI document', async () => {
      const document = (await (await h.request('/api/openapi.json')).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      expect(document.paths['/mcp']?.post).toBeDefined();
      expect(document.paths['/llms.txt']?.get).toBeDefined();
      expect(document.paths['/llms-full.txt']?.get).toBeDefined();
      expect(document.paths['/docs/{name}.md']?.get).toBeDefined();
    });
  });
