// The MCP server (official SDK, low-level Server): the tools and page resources, built per request for stateless Streamable HTTP.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  type InitializeResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerCapabilities,
  type ServerResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { API_VERSION } from '../domain/api-version.js';
import { NotFoundError, ValidationError, WardenError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import { ACCEPTED_VERSIONS, MCP_PROTOCOL_VERSION, MCP_TOOLS } from './catalog.js';
import { listPageResources, PAGE_RESOURCE_TEMPLATE, readPageResource } from './resources.js';
import type { McpContext, McpTool } from './tool.js';

// The transport /mcp serves over, from the same copy of the SDK as the server (the production bundle leaves the SDK in
// node_modules and requires it from here: an import() of it from the bundle would load its ES build beside this one).
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export { MCP_PROTOCOL_VERSION, MCP_TOOLS };

export const MCP_SERVER_INFO = { name: 'warden', title: 'Warden status pages', version: API_VERSION };

const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
};

const INSTRUCTIONS =
  'Warden publishes the status pages of game servers and web services. Call list_status_pages for the slugs, get_status for the current ' +
  'state of a page (components, uptime, players, incidents, maintenance), list_incidents for its incident history. Markdown times are UTC; ' +
  'times in structured content are epoch milliseconds.';

/** tools/list never changes: the JSON Schemas are derived from the zod schemas once. */
const TOOL_LIST: Tool[] = Object.values(MCP_TOOLS).map((tool: McpTool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
  outputSchema: z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output' }) as Tool['outputSchema'],
  annotations: {
    title: tool.title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
}));

/** A server for one HTTP request: stateless, so nothing survives it but what the page cache holds. */
export function createMcpServer(context: McpContext): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  on(server, InitializeRequestSchema, (request): InitializeResult => {
    const asked = request.params.protocolVersion;
    return {
      protocolVersion: ACCEPTED_VERSIONS.has(asked) ? asked : MCP_PROTOCOL_VERSION,
      capabilities: CAPABILITIES,
      serverInfo: MCP_SERVER_INFO,
      instructions: INSTRUCTIONS,
    };
  });
  on(server, ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  on(server, CallToolRequestSchema, (request) => callTool(request.params.name, request.params.arguments, context));
  on(server, ListResourcesRequestSchema, () => ({ resources: listPageResources(context) }));
  on(server, ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [PAGE_RESOURCE_TEMPLATE] }));
  on(server, ReadResourceRequestSchema, async (request) => {
    try {
      return await readPageResource(request.params.uri, context);
    } catch (error) {
      throw protocolError(
        error,
        context,
        () => new RpcError(-32002, 'Resource not found', { uri: request.params.uri }),
      );
    }
  });
  return server;
}

type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> }>;

/**
 * Registers a handler that checks its request itself: the SDK answers malformed params with -32603 and a raw zod dump,
 * here they are -32602 naming each field.
 */
function on<S extends RequestSchema>(
  server: Server,
  schema: S,
  handler: (request: z.output<S>) => ServerResult | Promise<ServerResult>,
): void {
  const method = schema.shape.method.value;
  server.setRequestHandler(z.object({ method: z.literal(method) }).loose(), (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) throw invalidParams(`Invalid ${method} request`, parsed.error.issues);
    return handler(parsed.data);
  });
}

function invalidParams(
  what: string,
  zodIssues: readonly { path: readonly PropertyKey[]; message: string }[],
): RpcError {
  const issues = zodIssues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
  return new RpcError(
    ErrorCode.InvalidParams,
    `${what}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
    { issues },
  );
}

async function callTool(name: string, args: unknown, context: McpContext): Promise<CallToolResult> {
  const tool: McpTool | undefined = Object.hasOwn(MCP_TOOLS, name)
    ? MCP_TOOLS[name as keyof typeof MCP_TOOLS]
    : undefined;
  if (!tool) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) throw invalidParams(`Invalid arguments for tool ${name}`, parsed.error.issues);
  try {
    const output = await tool.run(parsed.data, context);
    return { content: [{ type: 'text', text: output.markdown }], structuredContent: output.structured };
  } catch (error) {
    // A page the caller may not see reads exactly like one that does not exist: a tool error the model can act on.
    if (error instanceof NotFoundError)
      return toolError(`No status page ${JSON.stringify(error.id)}: list_status_pages lists the pages available.`);
    if (error instanceof WardenError && !(error instanceof ValidationError)) return toolError(error.message);
    throw protocolError(error, context);
  }
}

/**
 * A JSON-RPC error as the SDK's protocol layer sends it (it reads `code`, `message` and `data`). Unlike the SDK's McpError,
 * whose message starts with "MCP error -32602:", the message goes on the wire as written.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The core's errors as JSON-RPC errors: invalid input is -32602, anything unexpected -32603 without details (logged). */
function protocolError(error: unknown, context: McpContext, notFound?: () => RpcError): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof NotFoundError && notFound) return notFound();
  if (error instanceof ValidationError)
    return new RpcError(ErrorCode.InvalidParams, error.message, { issues: error.issues });
  if (error instanceof WardenError) return new RpcError(ErrorCode.InvalidRequest, error.message);
  context.logger.error({ err: error }, 'MCP request failed');
  return new RpcError(ErrorCode.InternalError, 'Internal error');
}
