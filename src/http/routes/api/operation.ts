// An organization API operation declared once: its OpenAPI entry, its guard and errors, and the one verb it calls.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { ApiKey } from '../../../domain/organization.js';
import type { ServiceContext } from '../../../services/context.js';
import type { App, AppEnv } from '../../app.js';
import type { ApiKeyEnv } from '../../middleware/api-key-auth.js';
import { checkJsonDepth } from '../../middleware/json-body.js';
import { jsonBody, jsonResponse, problemResponse, problemResponses, RATE_LIMIT_HEADERS, security, TAGS } from '../../openapi.js';
import { sentIn } from '../../problem.js';

export type ApiEnv = AppEnv & ApiKeyEnv;
export type ApiGuard = MiddlewareHandler<ApiEnv>;

/** The guards of read routes (any key) and write routes (write key, capped body). */
export interface ApiGuards {
  read: ApiGuard;
  write: ApiGuard;
}

type Shape = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : unknown;

export interface ApiOperation<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R> {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  tag: keyof typeof TAGS;
  summary: string;
  description?: string;
  /** read: any key; write: a write key, and a capped body. */
  scope: 'read' | 'write';
  params?: P;
  query?: Q;
  body?: B;
  /** The success answer: JSON of this schema, or 204 without a body. */
  ok: { status: 200 | 201; schema: z.ZodType; description: string } | { status: 204; description: string };
  /** The 404 in the operation's own words, when it names an object. */
  notFound?: string;
  /** The verb, called with the caller's organization and the path parameters, query and body as one input. */
  run(ctx: ServiceContext, input: Out<P> & Out<Q> & Out<B>): Promise<R>;
  /** The JSON answered, when it is not what `run` returns. */
  respond?(result: R): unknown;
}

export function apiOperation<P extends Shape | undefined, Q extends Shape | undefined, B extends z.ZodType | undefined, R>(
  app: App,
  guards: ApiGuards,
  op: ApiOperation<P, Q, B, R>,
): void {
  const problems =
    op.scope === 'write' ? problemResponses(400, 401, 403, 409, 413, 415, 429) : op.params || op.query ? problemResponses(400, 401, 429) : problemResponses(401, 429);
  const route = createRoute({
    method: op.method,
    path: op.path,
    tags: [TAGS[op.tag].name],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: security.apiKey,
    middleware: op.body ? [guards[op.scope], jsonDepthGuard] : guards[op.scope],
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.body ? { body: jsonBody(op.body) } : {}),
    },
    responses: {
      [op.ok.status]: 'schema' in op.ok ? jsonResponse(op.ok.schema, op.ok.description, RATE_LIMIT_HEADERS) : { description: op.ok.description },
      ...problems,
      ...(op.notFound ? { 404: problemResponse(404, op.notFound) } : {}),
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the route's types are generic here; `run` is typed by the operation.
  app.openapi(route, async (c: any) => {
    const input = { ...(op.params ? c.req.valid('param') : {}), ...(op.query ? c.req.valid('query') : {}), ...(op.body ? c.req.valid('json') : {}) };
    const result = await sentIn(op.body ? 'body' : op.query ? 'query' : undefined, op.run(requestContext(c), input));
    if (op.ok.status === 204) return c.body(null, 204);
    return c.json(op.respond ? op.respond(result) : result, op.ok.status);
  });
}

/**
 * A JSON body nested deeper than JSON_MAX_DEPTH is answered 400 naming `body` before the validator parses it, so
 * nothing recursive (a schema, JSON.stringify in a verb) ever walks it. The guards have capped its size already.
 */
const jsonDepthGuard: ApiGuard = async (c, next) => {
  checkJsonDepth(await c.req.text());
  await next();
};

/** The verbs' context for a request: the app's parts, the key's organization, the request's logger. */
export function requestContext(c: { var: { deps: AppEnv['Variables']['deps']; apiKey: ApiKey; log: AppEnv['Variables']['log'] } }): ServiceContext {
  return { ...c.var.deps, logger: c.var.log, organizationId: c.var.apiKey.organizationId };
}

const pathParam = (name: string, description: string, example: string) =>
  z.string().min(1).max(200).openapi({ param: { name, in: 'path', description }, example });

export const slugParam = pathParam('slug', 'The page slug.', 'lobby');
export const idParam = (what: string, example: string) => pathParam('id', `The ${what} id.`, example);

/** A collection's GET, answered as `{ [key]: items }` (the lists whose caps bound them; nothing to page through). */
export function listOperation<T>(
  app: App,
  guards: ApiGuards,
  op: Pick<ApiOperation<undefined, undefined, undefined, T[]>, 'tag' | 'path' | 'summary' | 'description'> & {
    scope?: 'read' | 'write';
    key: string;
    item: z.ZodType;
    ok: string;
    run(ctx: ServiceContext): Promise<T[]>;
  },
): void {
  const { key, item, ok, run, scope = 'read', ...rest } = op;
  apiOperation(app, guards, {
    ...rest,
    method: 'get',
    scope,
    ok: { status: 200, schema: z.object({ [key]: z.array(item) }), description: ok },
    run: (ctx) => run(ctx),
    respond: (items) => ({ [key]: items }),
  });
}
