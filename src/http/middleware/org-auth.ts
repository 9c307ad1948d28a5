// Authenticates the organization API: a Bearer API key, or a signed-in browser's session cookie (401 otherwise); then
// the role a route needs (403 otherwise). Either way the request acts for one organization, as one actor.
import type { Context, MiddlewareHandler } from 'hono';
import { type Actor, apiKeyRole, type Role, roleAtLeast } from '../../domain/account.js';
import { ForbiddenError } from '../../domain/errors.js';
import { authenticateSession } from '../../services/accounts/authenticate-session.js';
import { authenticateApiKey } from '../../services/api-keys/authenticate.js';
import { serviceContext } from '../../services/context.js';
import { actingMembership } from '../../services/members/acting-membership.js';
import type { AppEnv } from '../env.js';
import { problem, problemResponse } from '../problem.js';
import { readSessionToken, sameOrigin } from '../session-cookie.js';

/** Whom a request acts for: the organization, the actor (with their role in it), and what its rate limit counts against. */
export interface Principal {
  organizationId: string;
  actor: Extract<Actor, { kind: 'user' | 'apiKey' }>;
  /** The key's id, or the user's: each has its own budget. */
  rateKey: string;
}

export type OrgAuthEnv = { Variables: { principal: Principal } };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="warden"';
/** A signed-in user with several organizations names the one a request is for (its key); else their first one. */
export const ORGANIZATION_HEADER = 'x-warden-organization';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every answer of an authenticated route: it is for this caller (and may hold a secret shown once), never to be stored. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

/**
 * Sends `Cache-Control: no-store` on every answer that passes here: success, its own 401, and whatever the guards and
 * the route answer after it (403, 404, 413, 429, validation errors, 500s the app maps).
 */
export function orgAuth(): MiddlewareHandler<AppEnv & OrgAuthEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const outcome = secret !== undefined ? await byApiKey(c, secret) : await bySession(c);
    if (outcome instanceof Response) return outcome;
    c.set('principal', outcome);
    await next();
    setResponseHeaders(c, NO_STORE);
  };
}

async function byApiKey(c: Context<AppEnv & OrgAuthEnv>, secret: string): Promise<Principal | Response> {
  const apiKey = await authenticateApiKey(verbContext(c), { secret });
  if (!apiKey)
    return problemResponse(
      c,
      problem(401, 'unauthorized', 'Unauthorized', 'The API key is not valid: it is malformed, unknown or revoked.'),
      {
        'www-authenticate': `${CHALLENGE}, error="invalid_token"`,
        ...NO_STORE,
      },
    );
  return {
    organizationId: apiKey.organizationId,
    actor: { kind: 'apiKey', apiKeyId: apiKey.id, name: apiKey.name, role: apiKeyRole(apiKey.scope) },
    rateKey: apiKey.id,
  };
}

async function bySession(c: Context<AppEnv & OrgAuthEnv>): Promise<Principal | Response> {
  const token = readSessionToken(c);
  const signedIn = token === undefined ? null : await authenticateSession(verbContext(c), { token });
  if (!signedIn)
    return problemResponse(
      c,
      problem(
        401,
        'unauthorized',
        'Unauthorized',
        'Send an API key as "Authorization: Bearer wdn_…", or sign in at /app.',
      ),
      { 'www-authenticate': CHALLENGE, ...NO_STORE },
    );
  if (!SAFE_METHODS.has(c.req.method) && !sameOrigin(c))
    return forbidden(
      c,
      'A signed-in browser may change things only from Warden’s own pages (the Origin header names another site).',
    );
  const { user, session } = signedIn;
  const wanted = c.req.header(ORGANIZATION_HEADER);
  const membership = await actingMembership(verbContext(c), { userId: user.id, wanted });
  if (!membership)
    return problemResponse(
      c,
      problem(
        403,
        'no-organization',
        'No organization',
        wanted === undefined
          ? 'You are not a member of any organization.'
          : `You are not a member of the organization "${wanted}".`,
      ),
      NO_STORE,
    );
  return {
    organizationId: membership.organizationId,
    actor: {
      kind: 'user',
      userId: user.id,
      name: user.name || user.email,
      role: membership.role,
      sessionId: session.id,
    },
    rateKey: user.id,
  };
}

/** What a route needs of the caller's role; answered here, so the rate limit headers wrap the 403 too. */
export function requireRole(needed: Role): MiddlewareHandler<AppEnv & OrgAuthEnv> {
  return async (c, next) => {
    const { actor } = c.get('principal');
    if (!roleAtLeast(actor.role, needed)) {
      const message =
        actor.kind === 'apiKey'
          ? needed === 'viewer' || needed === 'editor' || needed === 'admin'
            ? 'This route needs a key with the write scope; this key is read-only.'
            : 'This route needs an owner of the organization; API keys cannot do it.'
          : `This needs the ${needed} role or above; you are ${actor.role === 'admin' || actor.role === 'editor' ? 'an' : 'a'} ${actor.role} of this organization.`;
      return forbidden(c, message);
    }
    await next();
  };
}

function forbidden(c: Context, message: string): Response {
  const error = new ForbiddenError(message);
  return problemResponse(c, problem(error.status, error.code, error.title, error.message), NO_STORE);
}

/**
 * Sets headers on the answer a middleware got back from next(), whatever made it (a route, onError, a guard). The
 * answer is rebuilt: @hono/node-server's light Response forgets changes made through `.headers` when its init held a
 * plain object (as problem answers do), so `c.res.headers.set()` alone would be lost on error answers.
 */
export function setResponseHeaders(c: Context, headers: Readonly<Record<string, string>>): void {
  const res = c.res;
  const merged = new Headers(res.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  c.res = undefined;
  c.res = new Response(res.body, { status: res.status, statusText: res.statusText, headers: merged });
}

/** The authentication verbs' context: the verbs' parts and the request's logger, for no organization yet. */
function verbContext(c: { var: Pick<AppEnv['Variables'], 'deps' | 'log'> }) {
  return serviceContext(c.var.deps, { logger: c.var.log });
}
