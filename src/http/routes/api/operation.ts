// An organization API operation declared once: its OpenAPI entry, its guard and errors, and the one verb it calls.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Role } from '../../../domain/account.js';
import { type AuditedObject, audited, changedFields } from '../../../services/audit/record.js';
import { type ServiceContext, serviceContext } from '../../../services/context.js';
import type { App, AppEnv } from '../../env.js';
import { checkJsonDepth, readBodyBytes } from '../../middleware/json-body.js';
import type { OrgAuthEnv } from '../../middleware/org-auth.js';
import {
  jsonBody,
  jsonResponse,
  problemResponse,
  problemResponses,
  RATE_LIMIT_HEADERS,
  security,
  TAGS,
} from '../../openapi.js';
import { sentIn } from '../../problem.js';

export type ApiEnv = AppEnv & OrgAuthEnv;
export type ApiGuard = MiddlewareHandler<ApiEnv>;

/** The guards of read routes (any key, any member) and write routes (a write key or an editor, and a capped body). */
export interface ApiGuards {
  read: ApiGuard;
  write: ApiGuard;
  /** A guard needing `role` (a write key counts as an admin, a read key as a viewer); `write` caps the body too. */
  for(role: Role, write: boolean): ApiGuard;
}

type Shape = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : unknown;

export interface ApiOperation<
  P extends Shape | undefined,
  Q extends Shape | undefined,
  B extends z.ZodType | undefined,
  R,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tag: keyof typeof TAGS;
  summary: string;
  description?: string;
  /** read: any key, any member; write: a write key or an editor (at least), and a capped body. */
  scope: 'read' | 'write';
  /** The weakest role allowed, when it is not the scope's (viewer for read, editor for write): admin for credentials, owner for the organization itself. */
  role?: Role;
  params?: P;
  query?: Q;
  body?: B;
  /** A body that is not JSON (an image), read by the operation itself: see RawBody. */
  rawBody?: RawBody<Out<P>>;
  /** The success answer: JSON of this schema, or 204 without a body. */
  ok: { status: 200 | 201; schema: z.ZodType; description: string } | { status: 204; description: string };
  /** The 404 in the operation's own words, when it names an object. */
  notFound?: string;
  /** The verb, called with the caller's organization and the path parameters, query and body as one input. */
  run(ctx: ServiceContext, input: Out<P> & Out<Q> & Out<B>): Promise<R>;
  /** The JSON answered, when it is not what `run` returns. */
  respond?(result: R): unknown;
  /** What a write records in the audit log: every write declares it (the audit test holds each to it). */
  audit?: ApiAudit<Out<P> & Out<Q> & Out<B>, R>;
}

/**
 * A raw body of any declared type, documented under these media types. The guard caps nothing: the operation reads at
 * most `maxBytes` for the request (refusing a larger Content-Length before reading any) and hands the bytes to `run`
 * as `body` (a Buffer); beyond, `tooLarge` is thrown (a 413 naming the limit).
 */
export interface RawBody<P> {
  mediaTypes: readonly string[];
  description: string;
  maxBytes(params: P): number;
  tooLarge(params: P): Error;
}

/** A write's audit entry: recorded with the write, in its transaction, naming the caller (user or API key). */
export interface ApiAudit<I, R> {
  /** `monitor.create`: the object type, a dot, what was done. */
  action: string;
  /** The object's id and label (key, slug, title, email), from the input and the verb's result. */
  object(input: I, result: R): AuditedObject;
  /** Read before the verb, in its transaction: a deleted object's label. */
  before?(ctx: ServiceContext, input: I): Promise<Partial<AuditedObject> | undefined>;
  /** What changed; by default the names of the body's fields (never their values). */
  detail?(input: I, result: R): Record<string, unknown> | null;
  /** The verb waits on the network (DNS, a receiver, a mail server): no transaction around it; the entry follows it. */
  outside?: boolean;
}

export function apiOperation<
  P extends Shape | undefined,
  Q extends Shape | undefined,
  B extends z.ZodType | undefined,
  R,
>(app: App, guards: ApiGuards, op: ApiOperation<P, Q, B, R>): void {
  const role = op.role ?? (op.scope === 'write' ? 'editor' : 'viewer');
  const readCodes = [
    ...(op.params || op.query ? [400 as const] : []),
    401 as const,
    ...(role === 'viewer' ? [] : [403 as const]),
    429 as const,
  ];
  const problems =
    op.scope === 'write' ? problemResponses(400, 401, 403, 409, 413, 415, 429) : problemResponses(...readCodes);
  const route = createRoute({
    method: op.method,
    path: op.path,
    tags: [TAGS[op.tag].name],
    summary: op.summary,
    ...(op.description || ROLE_NOTES[role]
      ? { description: [op.description, ROLE_NOTES[role]].filter(Boolean).join(' ') }
      : {}),
    security: security.apiKey,
    // The weakest role allowed (a read key acts as a viewer, a write key as an admin): clients and tests read it here.
    'x-warden-role': role,
    middleware: op.body ? [guardOf(guards, op), jsonDepthGuard] : guardOf(guards, op),
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.body ? { body: jsonBody(op.body) } : {}),
      ...(op.rawBody ? { body: rawBodyDocument(op.rawBody) } : {}),
    },
    responses: {
      [op.ok.status]:
        'schema' in op.ok
          ? jsonResponse(op.ok.schema, op.ok.description, RATE_LIMIT_HEADERS)
          : { description: op.ok.description, headers: RATE_LIMIT_HEADERS },
      ...problems,
      ...(op.notFound ? { 404: problemResponse(404, op.notFound) } : {}),
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the route's types are generic here; `run` is typed by the operation.
  app.openapi(route, async (c: any) => {
    const params = op.params ? c.req.valid('param') : {};
    const input = {
      ...params,
      ...(op.query ? c.req.valid('query') : {}),
      ...(op.body ? c.req.valid('json') : {}),
      ...(op.rawBody ? { body: await readRawBody(c, op.rawBody, params) } : {}),
    };
    const ctx = requestContext(c);
    // The entry names the fields the caller sent (not the defaults filled in): the body as it came, parsed once already.
    const work = op.audit
      ? audited(ctx, auditedWrite(op.audit, input, op.body ? await sentBody(c) : undefined), (tx) => op.run(tx, input))
      : op.run(ctx, input);
    const result = await sentIn(op.body ? 'body' : op.query ? 'query' : undefined, work);
    if (op.ok.status === 204) return c.body(null, 204);
    return c.json(op.respond ? op.respond(result) : result, op.ok.status);
  });
}

/** The body as sent, for the audit entry's field names; none when the request had none (a validator may have passed it as `{}`). */
// biome-ignore lint/suspicious/noExplicitAny: the route's context, as above.
const sentBody = (c: any): Promise<unknown> => c.req.json().catch(() => undefined);

/** What the description says of a role above the scope's. */
const ROLE_NOTES: Partial<Record<Role, string>> = {
  admin: 'Needs an admin (or a write key).',
  owner: 'Needs an owner, signed in: API keys cannot.',
};

function auditedWrite<I, R>(audit: ApiAudit<I, R>, input: I, body: unknown) {
  return {
    action: audit.action,
    object: (result: R) => audit.object(input, result),
    ...(audit.before
      ? { before: (ctx: ServiceContext) => audit.before?.(ctx, input) ?? Promise.resolve(undefined) }
      : {}),
    detail: (result: R) => (audit.detail ? audit.detail(input, result) : changedFields(body)),
    outside: audit.outside === true,
  };
}

function guardOf(guards: ApiGuards, op: { scope: 'read' | 'write'; role?: Role; rawBody?: unknown }): ApiGuard {
  // A raw body is capped by its operation (its own limit, and its own words), not the JSON bodies' cap.
  if (op.rawBody) return guards.for(op.role ?? 'editor', false);
  return op.role === undefined ? guards[op.scope] : guards.for(op.role, op.scope === 'write');
}

function rawBodyDocument(raw: RawBody<never>) {
  const content = Object.fromEntries(
    raw.mediaTypes.map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }]),
  );
  return { description: raw.description, required: true, content };
}

// biome-ignore lint/suspicious/noExplicitAny: the route's context, as above.
async function readRawBody<P>(c: any, raw: RawBody<P>, params: P): Promise<Buffer> {
  const maxBytes = raw.maxBytes(params);
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw raw.tooLarge(params);
  const bytes = await readBodyBytes(c, maxBytes);
  if (bytes.length > maxBytes) throw raw.tooLarge(params);
  return bytes;
}

/**
 * A JSON body nested deeper than JSON_MAX_DEPTH is answered 400 naming `body` before the validator parses it, so
 * nothing recursive (a schema, JSON.stringify in a verb) ever walks it. The guards have capped its size already.
 */
const jsonDepthGuard: ApiGuard = async (c, next) => {
  checkJsonDepth(await c.req.text());
  await next();
};

/**
 * The verbs' context for a request: the verbs' parts, the caller's organization and who they are, the request's logger;
 * nothing else of the app (a verb needing more of the running server is handed it by its route group).
 */
export function requestContext(c: {
  var: {
    deps: AppEnv['Variables']['deps'];
    principal: OrgAuthEnv['Variables']['principal'];
    log: AppEnv['Variables']['log'];
  };
}): ServiceContext {
  const { organizationId, actor } = c.var.principal;
  return serviceContext(c.var.deps, { logger: c.var.log, organizationId, actor });
}

const pathParam = (name: string, description: string, example: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name, in: 'path', description }, example });

export const slugParam = pathParam('slug', "The page's slug (its key), or its id.", 'lobby');
export const idParam = (what: string, example: string) => pathParam('id', `The ${what} id.`, example);
/** An object that has a key is addressed by its id or its key (docs/api.md#addressing-objects); an id wins a tie. */
export const idOrKeyParam = (what: string, example: string) =>
  pathParam('id', `The ${what}'s id, or its key.`, example);

/**
 * A collection's GET, answered as `{ [key]: items }` (the lists whose caps bound them; nothing to page through), with
 * the query parameters that narrow it, if any.
 */
export function listOperation<T, Q extends Shape | undefined = undefined>(
  app: App,
  guards: ApiGuards,
  op: Pick<
    ApiOperation<undefined, Q, undefined, T[]>,
    'tag' | 'path' | 'summary' | 'description' | 'role' | 'query'
  > & {
    scope?: 'read' | 'write';
    key: string;
    item: z.ZodType;
    ok: string;
    run(ctx: ServiceContext, query: Out<Q>): Promise<T[]>;
  },
): void {
  const { key, item, ok, run, scope = 'read', ...rest } = op;
  apiOperation(app, guards, {
    ...rest,
    method: 'get',
    scope,
    ok: { status: 200, schema: z.object({ [key]: z.array(item) }), description: ok },
    run: (ctx, query) => run(ctx, query as Out<Q>),
    respond: (items) => ({ [key]: items }),
  });
}
