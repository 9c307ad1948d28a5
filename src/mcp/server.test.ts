import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { AI_SECRETS, aiPagesConfig, HIDDEN_PAGES } from '../../test/fakes/ai-pages.js';
import { dialects } from '../../test/store-dialects.js';
import { type Snapshot, snapshotComponentSchema, snapshotSchema } from '../domain/snapshot.js';
import { MCP_PROTOCOL_VERSION, MCP_TOOLS } from './server.js';

const START = Date.UTC(2026, 10, 20, 12);

/** The official SDK client, speaking Streamable HTTP to the in-process app (host picks the main address or a custom domain). */
async function connect(h: Harness, host = 'warden.test'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), {
    fetch: (url, init) => h.request(new URL(String(url)).pathname, { ...init, host } as RequestInit & { host: string }),
  });
  const client = new Client({ name: 'warden-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result as CallToolResult).content;
  expect(content[0]?.type).toBe('text');
  return (content[0] as { text: string }).text;
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the MCP server on ${dialect.name}`, () => {
    let h: Harness;
    let client: Client;
    beforeAll(async () => {
      h = await startHarness(dialect, aiPagesConfig(START), START);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 40,
        data: { players: 7, maxPlayers: 50 },
        source: 'edge',
      });
      await h.ingest.record({
        monitorId: h.monitors.admin!.id,
        ok: false,
        error: 'authentication failed (wrong RCON password?)',
        source: 'edge',
      });
      client = await connect(h);
    });
    afterAll(async () => {
      await client?.close();
      await h?.close();
    });

    it('negotiates protocol version 2025-06-18 and names itself', async () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'warden' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
      expect(client.getInstructions()).toContain('list_status_pages');
      // The SDK client offers its latest version; Warden answers with the one it implements.
      const response = await h.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
      expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(
        MCP_PROTOCOL_VERSION,
      );
    });

    it('lists the three tools with input and output schemas, bounds in the descriptions', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_status', 'list_incidents', 'list_status_pages']);
      for (const [name, tool] of Object.entries(MCP_TOOLS)) expect(tool.name).toBe(name);
      const incidents = tools.find((t) => t.name === 'list_incidents')!;
      expect(incidents.inputSchema).toMatchObject({
        type: 'object',
        required: ['slug'],
        additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          includeResolved: { type: 'boolean', default: false },
          days: { type: 'integer', minimum: 1, maximum: 365, default: 30 },
        },
      });
      expect(incidents.description).toMatch(/limit \(integer 1–100, default 20\)/);
      expect(incidents.description).toMatch(/days \(integer 1–365, default 30/);
      expect(incidents.annotations).toMatchObject({ readOnlyHint: true });
      for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
    });

    it('list_status_pages lists the public pages only, with their state', async () => {
      const result = await client.callTool({ name: 'list_status_pages', arguments: {} });
      const { pages } = result.structuredContent as {
        pages: { slug: string; title: string; state: string; markdownUrl: string }[];
      };
      expect(pages.map((p) => p.slug)).toEqual(['acme', 'beta']);
      expect(pages[0]).toMatchObject({ title: 'Acme Network', markdownUrl: 'http://warden.test/s/acme/status.md' });
      expect(text(result)).toContain('**Acme Network** (slug `acme`)');
      expect(text(result)).toContain('Beta Realm');
    });

    it('get_status answers the Markdown and the snapshot, without the chart series', async () => {
      const result = await client.callTool({ name: 'get_status', arguments: { slug: 'acme' } });
      expect(result.isError).toBeFalsy();
      const components = (result.structuredContent as { components: Record<string, unknown>[] }).components;
      expect(components.every((c) => !('charts' in c) && Array.isArray(c.days) && 'uptime' in c)).toBe(true);
      const snapshot = snapshotSchema
        .extend({ components: z.array(snapshotComponentSchema.omit({ charts: true })) })
        .parse(result.structuredContent) as Snapshot;
      expect(snapshot.page.slug).toBe('acme');
      expect(snapshot.components.map((c) => c.name)).toEqual(['Lobby', 'Admin', 'Website', 'Backups']);
      expect(snapshot.activeIncidents.map((i) => i.title)).toEqual(['Lobby lag spikes']);
      const markdown = text(result);
      expect(markdown).toMatch(/^# Acme Network\n/);
      expect(markdown).toBe(await (await h.request('/s/acme/status.md')).text());
    });

    it('list_incidents gives active incidents by default, resolved ones within days on request', async () => {
      const active = await client.callTool({ name: 'list_incidents', arguments: { slug: 'acme' } });
      const activeOut = active.structuredContent as {
        incidents: { title: string }[];
        limit: number;
        days: number;
        includeResolved: boolean;
      };
      expect(activeOut.incidents.map((i) => i.title)).toEqual(['Lobby lag spikes']);
      expect(activeOut).toMatchObject({ limit: 20, days: 30, includeResolved: false });
      expect(text(active)).toContain('### Lobby lag spikes');
      expect(text(active)).toContain('A plugin update causes it; rolling back.');

      const recent = await client.callTool({
        name: 'list_incidents',
        arguments: { slug: 'acme', includeResolved: true },
      });
      const recentOut = recent.structuredContent as { incidents: { title: string; components: { name: string }[] }[] };
      expect(recentOut.incidents.map((i) => i.title)).toEqual(['Lobby lag spikes', 'Website outage']);
      expect(recentOut.incidents[1]?.components).toEqual([{ id: expect.any(String), name: 'Website' }]);

      const year = await client.callTool({
        name: 'list_incidents',
        arguments: { slug: 'acme', includeResolved: true, days: 365 },
      });
      expect((year.structuredContent as { incidents: unknown[] }).incidents).toHaveLength(3);
      const one = await client.callTool({
        name: 'list_incidents',
        arguments: { slug: 'acme', includeResolved: true, days: 365, limit: 1 },
      });
      expect((one.structuredContent as { incidents: { title: string }[] }).incidents.map((i) => i.title)).toEqual([
        'Lobby lag spikes',
      ]);

      const none = await client.callTool({ name: 'list_incidents', arguments: { slug: 'beta' } });
      expect(text(none)).toContain('_No active incidents._');
    });

    it('answers an unknown slug and a hidden page with the same tool error', async () => {
      const answers = [];
      for (const slug of ['nope', ...HIDDEN_PAGES.map((p) => p.slug)])
        for (const name of ['get_status', 'list_incidents']) {
          const result = await client.callTool({ name, arguments: { slug } });
          expect(result.isError).toBe(true);
          expect(result.structuredContent).toBeUndefined();
          answers.push(text(result).replace(slug, '<slug>'));
        }
      expect(new Set(answers)).toEqual(
        new Set(['No status page "<slug>": list_status_pages lists the pages available.']),
      );
    });

    it('answers invalid arguments and unknown tools with JSON-RPC errors (-32602)', async () => {
      const cases = [
        { name: 'list_incidents', arguments: { slug: 'acme', limit: 0 }, path: 'limit' },
        { name: 'list_incidents', arguments: { slug: 'acme', limit: 101 }, path: 'limit' },
        { name: 'list_incidents', arguments: { slug: 'acme', limit: 2.5 }, path: 'limit' },
        { name: 'list_incidents', arguments: { slug: 'acme', days: 366 }, path: 'days' },
        { name: 'list_incidents', arguments: { slug: 'acme', includeResolved: 'yes' }, path: 'includeResolved' },
        { name: 'get_status', arguments: {}, path: 'slug' },
        { name: 'get_status', arguments: { slug: 42 }, path: 'slug' },
        { name: 'get_status', arguments: { slug: 'acme', extra: true }, path: '(root)' },
        { name: 'list_status_pages', arguments: { slug: 'acme' }, path: '(root)' },
      ];
      for (const { path, ...call } of cases) {
        const error = await rpcError(client.callTool(call));
        expect(error.code, JSON.stringify(call)).toBe(ErrorCode.InvalidParams);
        expect(error.message).toContain(`Invalid arguments for tool ${call.name}: ${path}`);
      }
      const unknown = await rpcError(client.callTool({ name: 'delete_everything', arguments: {} }));
      expect(unknown.code).toBe(ErrorCode.InvalidParams);
      expect(unknown.message).toContain('Unknown tool: delete_everything');
      const prototypeKey = await rpcError(client.callTool({ name: 'constructor', arguments: {} }));
      expect(prototypeKey.code).toBe(ErrorCode.InvalidParams);
    });

    it('exposes each public page as a resource with its Markdown', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['warden://pages/acme', 'warden://pages/beta']);
      expect(resources[0]).toMatchObject({ name: 'acme', title: 'Acme Network', mimeType: 'text/markdown' });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['warden://pages/{slug}']);
      const read = await client.readResource({ uri: 'warden://pages/beta' });
      expect(read.contents[0]).toMatchObject({ uri: 'warden://pages/beta', mimeType: 'text/markdown' });
      expect((read.contents[0] as { text: string }).text).toMatch(/^# Beta Realm\n/);
      for (const uri of [
        'warden://pages/secret',
        'warden://pages/private',
        'warden://pages/nope',
        'https://elsewhere/x',
      ]) {
        const error = await rpcError(client.readResource({ uri }));
        expect(error.code).toBe(-32002);
        expect(error.message).toContain('Resource not found');
      }
    });

    it('on a page’s custom domain, sees that page only', async () => {
      const scoped = await connect(h, 'status.acme.test');
      try {
        const { pages } = (await scoped.callTool({ name: 'list_status_pages', arguments: {} })).structuredContent as {
          pages: { slug: string }[];
        };
        expect(pages.map((p) => p.slug)).toEqual(['acme']);
        expect((await scoped.callTool({ name: 'get_status', arguments: { slug: 'beta' } })).isError).toBe(true);
        expect((await scoped.listResources()).resources.map((r) => r.name)).toEqual(['acme']);
      } finally {
        await scoped.close();
      }
      const hidden = await connect(h, 'private.acme.test');
      try {
        const { pages } = (await hidden.callTool({ name: 'list_status_pages', arguments: {} })).structuredContent as {
          pages: unknown[];
        };
        expect(pages).toEqual([]);
      } finally {
        await hidden.close();
      }
    });

    it('never lets a secret or a hidden page through', async () => {
      const answers = [
        await client.listTools(),
        await client.callTool({ name: 'list_status_pages', arguments: {} }),
        await client.callTool({ name: 'get_status', arguments: { slug: 'acme' } }),
        await client.callTool({ name: 'get_status', arguments: { slug: 'beta' } }),
        await client.callTool({
          name: 'list_incidents',
          arguments: { slug: 'acme', includeResolved: true, days: 365 },
        }),
        await client.listResources(),
        await client.readResource({ uri: 'warden://pages/acme' }),
      ];
      const all = JSON.stringify(answers);
      for (const secret of Object.values(AI_SECRETS)) expect(all).not.toContain(secret);
      const hash = (await h.opened.store.pages.findBySlug('secret'))?.passwordHash;
      expect(hash).toEqual(expect.any(String));
      expect(all).not.toContain(hash);
      for (const page of HIDDEN_PAGES) {
        expect(all).not.toContain(page.title);
        expect(all).not.toContain(`/s/${page.slug}`);
      }
    });
  });
