// POST /mcp: the MCP endpoint over stateless Streamable HTTP (a server and transport per request, JSON answers); public and CORS-enabled.
import { z } from '@hono/zod-openapi';
import { textNestsDeeper, tooDeepMessage } from '../../domain/json-depth.js';
import { MCP_PROTOCOL_VERSION, MCP_TOOLS } from '../../mcp/catalog.js';
import { AI_LIMITS } from '../../services/ai-limits.js';
import { serviceContext } from '../../services/context.js';
import { mcpCors } from '../cors.js';
import type { App } from '../env.js';
import { readBodyBytes } from '../middleware/json-body.js';
import { NO_STORE, setResponseHeaders } from '../middleware/org-auth.js';

/**
 * The SDK and the server are loaded on the first call: most Warden processes never see an MCP client, and the SDK
 * would otherwise stay in the heap of every one of them (about 8 MB, which the garbage collector multiplies).
 */
let sdk: Promise<typeof import('../../mcp/server.js')> | null = null;
function loadSdk() {
  sdk ??= import('../../mcp/server.js');
  return sdk;
}

export function mcpRoutes(app: App): void {
  // CORS on every answer at /mcp, the 405 for GET and DELETE included (the app's method-not-allowed answers those).
  app.use('/mcp', mcpCors);
  // Answers are for one caller's request (whatever credentials it sent): never stored by a cache.
  app.use('/mcp', async (c, next) => {
    await next();
    setResponseHeaders(c, NO_STORE);
  });

  app.post('/mcp', async (c) => {
    // Read here, capped while it streams (past the cap the transport sees more bytes than it allows and answers 413),
    // so that a body nested too deeply is refused before the SDK parses and walks it.
    const bytes = await readBodyBytes(c, AI_LIMITS.mcpBodyBytes);
    if (bytes.length <= AI_LIMITS.mcpBodyBytes && textNestsDeeper(bytes.toString('utf8')))
      return c.json(
        {
          jsonrpc: '2.0',
          error: { code: -32600, message: `Invalid Request: the body is ${tooDeepMessage()}` },
          id: null,
        },
        400,
      );
    const request = new Request(c.req.raw.url, {
      method: 'POST',
      headers: c.req.raw.headers,
      body: new Uint8Array(bytes),
    });
    const deps = c.get('deps');
    const { createMcpServer, WebStandardStreamableHTTPServerTransport } = await loadSdk();
    // The public verbs' context, the page cache they read, and what the request may see.
    const context = serviceContext(deps, { logger: c.get('log') ?? deps.logger });
    const server = createMcpServer({
      ...context,
      pages: deps.pages,
      pageAccess: deps.pageAccess,
      scope: { host: c.req.header('host') },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: AI_LIMITS.mcpBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  });

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/mcp',
    tags: ['MCP and llms.txt'],
    summary: 'The Model Context Protocol endpoint (Streamable HTTP, stateless)',
    description:
      `JSON-RPC 2.0 over Streamable HTTP, protocol version ${MCP_PROTOCOL_VERSION}, no session. Tools: ${Object.keys(MCP_TOOLS).join(', ')}; ` +
      'resources `warden://pages/{slug}`. Send `Accept: application/json, text/event-stream`. No credentials; pages with a password or ' +
      '`aiPolicy: disallow` are never exposed. GET and DELETE answer 405. The guide is docs/mcp.md.',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              jsonrpc: z.literal('2.0'),
              id: z.union([z.string(), z.number()]).optional(),
              method: z.string(),
              params: z.unknown().optional(),
            }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The JSON-RPC response (errors included).',
        content: { 'application/json': { schema: z.unknown() } },
      },
      202: { description: 'A notification or response was accepted (no body).' },
      406: { description: 'The Accept header does not allow both application/json and text/event-stream.' },
      400: {
        description:
          'A JSON-RPC error: the body is not JSON, not a JSON-RPC message, or nested deeper than 400 levels of arrays and objects.',
      },
      413: { description: `The body is larger than ${AI_LIMITS.mcpBodyBytes} bytes (it is not read further).` },
      415: { description: 'The body is not application/json.' },
    },
  });
}
