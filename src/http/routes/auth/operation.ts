// An /api/v1/auth operation declared once: its OpenAPI entry and the guards every one of them shares — answers never
// stored (no-store), writes only from Warden's own pages (CSRF: 403 otherwise), the session cookie for the signed-in
// user's routes (401 otherwise), bodies capped — then the verb it calls and, when it signs someone in, the cookie.
import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Session, User } from '../../../domain/account.js';
import { ForbiddenError } from '../../../domain/errors.js';
import { authenticateSession } from '../../../services/accounts/authenticate-session.js';
import { rememberDevice } from '../../../services/accounts/known-devices.js';
import { type SignInAttempts, signInKeys } from '../../../services/accounts/sign-in-attempts.js';
import type { SignedIn } from '../../../services/accounts/view.js';
import { API_LIMITS } from '../../../services/api-limits.js';
import { type ServiceContext, serviceContext } from '../../../services/context.js';
import { readDeviceCookie, setDeviceCookie } from '../../device-cookie.js';
import type { App, AppEnv } from '../../env.js';
import { limitBody } from '../../middleware/body-limit.js';
import { checkJsonDepth } from '../../middleware/json-body.js';
import { NO_STORE, setResponseHeaders } from '../../middleware/org-auth.js';
import {
  jsonBody,
  jsonResponse,
  type ProblemStatus,
  problemResponse as problemDoc,
  security,
  TAGS,
} from '../../openapi.js';
import { problem, problemResponse, sentIn } from '../../problem.js';
import { readSessionToken, sameOrigin, setSessionCookie } from '../../session-cookie.js';
import { requestClient } from '../status/request-client.js';

/** The signed-in user of a session route. */
export type AuthEnv = AppEnv & { Variables: { signedIn: { user: User; session: Session } } };
type AuthContext = Context<AuthEnv>;

type Shape = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : unknown;

export interface AuthOperation<P extends Shape | undefined, B extends z.ZodType | undefined, R> {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  description: string;
  /** `public`: anyone (writes still only from Warden's own pages); `session`: the signed-in user, by the cookie. */
  access: 'public' | 'session';
  params?: P;
  body?: B;
  /** The body may be left out (no Content-Type): the operation then gets `{}`. */
  bodyOptional?: boolean;
  ok: { status: 200 | 201; schema: z.ZodType; description: string } | { status: 204; description: string };
  /**
   * Answered instead of `ok` when `when(result)`: the request was taken and finishes later (a link mailed); its body
   * has `schema` (else `ok`'s).
   */
  accepted?: { description: string; schema?: z.ZodType; when(result: R): boolean };
  /** The operation's own errors, in its words, beyond what the guards answer. */
  errors?: Partial<Record<ProblemStatus, string>>;
  run(c: AuthContext, input: Out<P> & Out<B>): Promise<R>;
  /** The JSON answered, when it is not what `run` returns. */
  respond?(result: R): unknown;
  /** Signs the browser in: the result's session goes into the cookie (none when it gives null). */
  signsIn?(result: R): SignedIn | null;
}

export function authOperation<P extends Shape | undefined, B extends z.ZodType | undefined, R>(
  app: App,
  op: AuthOperation<P, B, R>,
): void {
  const write = op.method !== 'get';
  const middleware: MiddlewareHandler<AuthEnv>[] = [noStore];
  if (write) middleware.push(ownOriginOnly);
  if (op.access === 'session') middleware.push(sessionRequired);
  if (op.body) middleware.push(limitBody<AuthEnv>(API_LIMITS.bodyBytes), jsonDepth);
  // Each status once, its description naming every reason (the guard's and the operation's own).
  const reasons = new Map<ProblemStatus, string[]>();
  const because = (status: ProblemStatus, reason: string) =>
    reasons.set(status, [...(reasons.get(status) ?? []), reason]);
  if (op.body || op.params) because(400, 'Invalid request: `errors` names each invalid field (`body.email`).');
  if (op.access === 'session')
    because(401, 'Not signed in: no session cookie, or its session ended (signed out, expired, revoked).');
  if (write) because(403, 'The request came from another site (its Origin header is not this server’s).');
  if (op.body) {
    because(413, `The body is larger than ${API_LIMITS.bodyBytes} bytes.`);
    because(415, 'The body is not application/json.');
  }
  for (const [status, reason] of Object.entries(op.errors ?? {})) because(Number(status) as ProblemStatus, reason);
  const problems = Object.fromEntries(
    [...reasons].map(([status, texts]) => [status, problemDoc(status, texts.join(' Or: '))]),
  );
  const route = createRoute({
    method: op.method,
    path: op.path,
    tags: [TAGS.account.name],
    summary: op.summary,
    description: op.description,
    security: op.access === 'session' ? security.session : security.none,
    middleware,
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.body ? { body: { ...jsonBody(op.body), required: op.bodyOptional !== true } } : {}),
    },
    responses: {
      [op.ok.status]:
        'schema' in op.ok ? jsonResponse(op.ok.schema, op.ok.description) : { description: op.ok.description },
      ...(op.accepted && 'schema' in op.ok
        ? { 202: jsonResponse(op.accepted.schema ?? op.ok.schema, op.accepted.description) }
        : {}),
      ...problems,
    } as RouteConfig['responses'],
  });
  // biome-ignore lint/suspicious/noExplicitAny: the route's types are generic here; `run` is typed by the operation.
  app.openapi(route, async (c: any) => {
    const input = { ...(op.params ? c.req.valid('param') : {}), ...(op.body ? c.req.valid('json') : {}) };
    const result = await sentIn(op.body ? 'body' : undefined, op.run(c, input));
    const signed = op.signsIn?.(result);
    if (signed) {
      setSessionCookie(c, signed.token, signed.session.expiresAt);
      // This browser is now a known device of the user: their right password always gets through it.
      setDeviceCookie(
        c,
        await rememberDevice(authContext(c), { cookie: readDeviceCookie(c), userId: signed.session.userId }),
      );
    }
    if (op.ok.status === 204) return c.body(null, 204);
    return c.json(op.respond ? op.respond(result) : result, op.accepted?.when(result) ? 202 : op.ok.status);
  });
}

/** The verbs' context for a request: the verbs' parts and the request's logger (nothing else of the app). */
export function authContext(c: AuthContext): ServiceContext {
  return serviceContext(c.var.deps, { logger: c.var.log });
}

/** The signed-in user and session of a session route. */
export function signedIn(c: AuthContext): { user: User; session: Session } {
  return c.var.signedIn;
}

/**
 * Runs `work` — a check of the signed-in user's password or code — under the attempt limits of that user and of the
 * client's address: a wrong one counts like a wrong sign-in, and past the limit the answer is 429.
 */
export function guardedForUser<T>(c: AuthContext, attempts: SignInAttempts, work: () => Promise<T>): Promise<T> {
  const keys = [signInKeys.user(signedIn(c).user.id), signInKeys.client(clientOf(c).address)];
  return attempts.guard(keys, () => c.var.deps.clock.now(), work);
}

/** The signed-in user and session, and the guard a verb checks a password or code sent with the request under. */
export function provenRequest(c: AuthContext, attempts: SignInAttempts) {
  const { user, session } = signedIn(c);
  return { userId: user.id, session, guard: <T>(check: () => Promise<T>) => guardedForUser(c, attempts, check) };
}

/** Where a sign-in comes from, kept with its session: the browser's user agent and the client's address. */
export function clientOf(c: AuthContext): { userAgent: string | undefined; address: string } {
  return { userAgent: c.req.header('user-agent'), address: requestClient(c as unknown as Context<AppEnv>) };
}

const noStore: MiddlewareHandler<AuthEnv> = async (c, next) => {
  await next();
  setResponseHeaders(c, NO_STORE);
};

const ownOriginOnly: MiddlewareHandler<AuthEnv> = async (c, next) => {
  if (!sameOrigin(c)) {
    const error = new ForbiddenError(
      'Account changes are accepted only from Warden’s own pages (the Origin header names another site).',
    );
    return problemResponse(c, problem(error.status, error.code, error.title, error.message));
  }
  await next();
};

const sessionRequired: MiddlewareHandler<AuthEnv> = async (c, next) => {
  const token = readSessionToken(c);
  const found = token === undefined ? null : await authenticateSession(authContext(c), { token });
  if (!found)
    return problemResponse(
      c,
      problem(401, 'unauthorized', 'Unauthorized', 'Sign in first: there is no session, or it has ended.'),
    );
  c.set('signedIn', found);
  // The session slid forward just now (at most once a minute): so does the cookie, or the browser would drop it 30
  // days after signing in however much it was used. Reads only: no write here ends the session and clears it.
  const { lastSeenAt, createdAt, expiresAt } = found.session;
  const now = c.var.deps.clock.now();
  if (token !== undefined && c.req.method === 'GET' && lastSeenAt === now && createdAt !== now)
    setSessionCookie(c, token, expiresAt);
  await next();
};

/** A JSON body nested deeper than JSON_MAX_DEPTH is refused (400 naming `body`) before anything parses it. */
const jsonDepth: MiddlewareHandler<AuthEnv> = async (c, next) => {
  checkJsonDepth(await c.req.text());
  await next();
};
