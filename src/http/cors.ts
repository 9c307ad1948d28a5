// Who may read Warden from another origin: the public reads (pages and their forms, llms files, docs, MCP, push), through
// hono/cors; and the headers it adds to an answer, which the pre-router writes itself for what it answers.
import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/** Everything public is readable from any origin; ETag and X-Request-Id are readable by the page's script too. */
const PUBLIC = { origin: '*' as const, exposeHeaders: ['ETag', 'X-Request-Id'], maxAge: 86_400 };

/** A page and its forms, on /s/{slug}, /api/v1/status/{slug} or a custom domain: read with a password or an ETag. */
export const PAGE_CORS = {
  ...PUBLIC,
  allowMethods: ['GET', 'HEAD', 'OPTIONS'],
  allowHeaders: ['Authorization', 'If-None-Match', 'Accept', 'Content-Type'],
};
/** Public documents (llms.txt, /docs/*.md). */
export const DOCUMENT_CORS = {
  ...PUBLIC,
  allowMethods: ['GET', 'HEAD', 'OPTIONS'],
  allowHeaders: ['If-None-Match', 'Accept'],
};
/** The MCP endpoint: the Streamable HTTP transport's own headers besides the JSON body. */
export const MCP_CORS = {
  ...PUBLIC,
  allowMethods: ['POST', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'Accept', 'Authorization', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
};
/** Heartbeats from a browser or a game plugin. */
export const PUSH_CORS = {
  origin: '*' as const,
  allowMethods: ['GET', 'POST'],
  allowHeaders: ['content-type'],
  maxAge: 86_400,
};

export const pageCors = cors(PAGE_CORS);
export const documentCors = cors(DOCUMENT_CORS);
export const mcpCors = cors(MCP_CORS);
export const pushCors = cors(PUSH_CORS);

/** What hono/cors adds to an answer that is not a preflight, under these options. */
export function corsHeadersOf(options: { origin: '*'; exposeHeaders?: readonly string[] }): Record<string, string> {
  return {
    'access-control-allow-origin': options.origin,
    ...(options.exposeHeaders?.length ? { 'access-control-expose-headers': options.exposeHeaders.join(',') } : {}),
  };
}

/** Answers a request through one of these policies: its preflight, or `handle`'s answer with the CORS headers added. */
export async function withCors(
  c: Context,
  policy: MiddlewareHandler,
  handle: () => Response | Promise<Response>,
): Promise<Response> {
  const preflight = await policy(c, async () => {
    c.res = await handle();
  });
  return preflight instanceof Response ? preflight : c.res;
}
