import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../cli-process.js';
import { AI_SECRETS, aiPagesConfig, HIDDEN_PAGES } from '../fakes/ai-pages.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const run = promisify(execFile);

/**
 * The MCP Inspector CLI (@modelcontextprotocol/inspector-cli, a dev dependency), a separate process speaking Streamable HTTP.
 * It imports its own package.json through a path relative to the working directory, so it runs from its build directory.
 */
const INSPECTOR_BUILD = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli'));
const INSPECTOR_BIN = join(INSPECTOR_BUILD, 'cli.js');

async function inspector(url: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [INSPECTOR_BIN, '--cli', url, ...args], {
      cwd: INSPECTOR_BUILD,
      timeout: 15_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`MCP and llms.txt on a running server on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let server: ServerProcess;
    let client: Client;
    let mcpUrl: string;
    const dir = mkdtempSync(join(tmpdir(), 'warden-mcp-'));

    beforeAll(async () => {
      const configFile = join(dir, 'warden.yaml');
      writeFileSync(configFile, aiPagesConfig(Date.now()));
      opened = await dialect.open();
      server = await startServer(['--config', configFile], { WARDEN_DATA_DIR: dir, ...opened.env, LOG_LEVEL: 'info' });
      mcpUrl = `${server.url}/mcp`;
      client = new Client({ name: 'warden-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    });
    afterAll(async () => {
      await client?.close();
      await server?.stop();
      await opened?.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves the three tools to the official SDK client over Streamable HTTP', async () => {
      expect(client.getServerVersion()?.name).toBe('warden');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_status', 'list_incidents', 'list_status_pages']);
      const list = await client.callTool({ name: 'list_status_pages', arguments: {} });
      expect((list.structuredContent as { pages: { slug: string }[] }).pages.map((p) => p.slug)).toEqual([
        'acme',
        'beta',
      ]);
      const status = await client.callTool({ name: 'get_status', arguments: { slug: 'acme' } });
      expect(status.structuredContent).toMatchObject({
        page: { slug: 'acme', title: 'Acme Network', url: `${server.url}/s/acme` },
      });
      expect((status.content as { text: string }[])[0]?.text).toBe(
        await (await fetch(`${server.url}/s/acme/status.md`)).text(),
      );
      const incidents = await client.callTool({
        name: 'list_incidents',
        arguments: { slug: 'acme', includeResolved: true },
      });
      expect((incidents.structuredContent as { incidents: { title: string }[] }).incidents.map((i) => i.title)).toEqual(
        ['Lobby lag spikes', 'Website outage'],
      );
    });

    it('hides protected pages behind the unknown-slug tool error, and rejects bad arguments with -32602', async () => {
      const unknown = await client.callTool({ name: 'get_status', arguments: { slug: 'nope' } });
      for (const { slug } of HIDDEN_PAGES) {
        const hidden = await client.callTool({ name: 'get_status', arguments: { slug } });
        expect(hidden.isError).toBe(true);
        expect(JSON.stringify(hidden.content).replace(slug, 'nope')).toBe(JSON.stringify(unknown.content));
      }
      const error = await client
        .callTool({ name: 'list_incidents', arguments: { slug: 'acme', days: 0 } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    });

    it('answers 200 JSON without a session, and 405 to GET and DELETE', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      for (const method of ['GET', 'DELETE']) expect((await fetch(mcpUrl, { method })).status).toBe(405);
    });

    // The Inspector speaks to the HTTP endpoint, which is the same whatever the store: run once, on SQLite (four
    // processes of about a second's CPU each fewer per run).
    if (dialect.name === 'sqlite')
      it('works with the MCP Inspector CLI', { timeout: scaled(30_000) }, async () => {
        const tools = await inspector(mcpUrl, ['--method', 'tools/list']);
        expect(tools.code, tools.stderr).toBe(0);
        expect((JSON.parse(tools.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual([
          'get_status',
          'list_incidents',
          'list_status_pages',
        ]);
        const call = await inspector(mcpUrl, [
          '--method',
          'tools/call',
          '--tool-name',
          'get_status',
          '--tool-arg',
          'slug=beta',
        ]);
        expect(call.code, call.stderr).toBe(0);
        expect(JSON.parse(call.stdout)).toMatchObject({
          structuredContent: { page: { slug: 'beta', title: 'Beta Realm' } },
        });
        const resources = await inspector(mcpUrl, ['--method', 'resources/read', '--uri', 'warden://pages/acme']);
        expect(resources.code, resources.stderr).toBe(0);
        expect(JSON.parse(resources.stdout).contents[0].text).toMatch(/^# Acme Network\n/);
        const invalid = await inspector(mcpUrl, [
          '--method',
          'tools/call',
          '--tool-name',
          'list_incidents',
          '--tool-arg',
          'slug=acme',
          '--tool-arg',
          'limit=500',
        ]);
        expect(invalid.code).not.toBe(0);
        expect(invalid.stderr).toContain('-32602');
      });

    it('serves llms.txt, llms-full.txt and the reference docs from the installed package', async () => {
      const index = await fetch(`${server.url}/llms.txt`);
      expect(index.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const body = await index.text();
      expect(body).toContain(`- [Acme Network](${server.url}/s/acme/status.md)`);
      expect(body).toContain(`](${server.url}/docs/mcp.md)`);
      expect((await fetch(`${server.url}/docs/mcp.md`)).status).toBe(200);
      const full = await (await fetch(`${server.url}/llms-full.txt`)).text();
      expect(full).toContain('Lobby lag spikes');
      expect(full).toContain('list_incidents');
    });

    it('lets no secret or hidden page out', async () => {
      const seen = [
        JSON.stringify(await client.listTools()),
        JSON.stringify(await client.callTool({ name: 'list_status_pages', arguments: {} })),
        JSON.stringify(await client.callTool({ name: 'get_status', arguments: { slug: 'acme' } })),
        JSON.stringify(await client.listResources()),
        await (await fetch(`${server.url}/llms.txt`)).text(),
        await (await fetch(`${server.url}/llms-full.txt`)).text(),
      ].join('\n');
      for (const secret of Object.values(AI_SECRETS)) expect(seen).not.toContain(secret);
      for (const page of HIDDEN_PAGES) expect(seen).not.toContain(page.title);
    });
  });
}
