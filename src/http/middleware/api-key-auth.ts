// Authenticates the organization API: a Bearer API key (401 otherwise), then the scope a route needs (403 otherwise).
import type { Context, MiddlewareHandler } from 'hono';
import { ForbiddenError } from '../../domain/errors.js';
import type { ApiKey, ApiKeyScope } from '../../domain/organization.js';
import { authenticateApiKey } from '../../services/api-keys/authenticate.js';
import type { AppEnv } from '../app.js';
import { problem, problemResponse } from '../problem.js';

export type ApiKeyEnv = { Variables: { apiKey: ApiKey } };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="warden"';

/** Every answer of an authenticated route: it is for this caller (and may hold a secret shown once), never to be stored. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

/**
 * Sends `Cache-Control: no-store` on every answer that passes here: success, its own 401, and whatever the guards and
 * the route answer after it (403, 404, 413, 429, validation errors, 500s the app maps).
 */
export function apiKeyAuth(): MiddlewareHandler<AppEnv & ApiKeyEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (secret === undefined)
      return problemResponse(
        c,
        problem(401, 'unauthorized', 'Unauthorized', 'Send an API key as "Authorization: Bearer wdn_…".'),
        { 'www-authenticate': CHALLENGE, ...NO_STORE },
      );
    const apiKey = await authenticateApiKey(c.get('deps'), { secret });
    if (!apiKey)
      return problemResponse(
        c,
        problem(401, 'unauthorized', 'Unauthorized', 'The API key is not valid: it is malformed, unknown or revoked.'),
        { 'www-authenticate': `${CHALLENGE}, error="invalid_token"`, ...NO_STORE },
      );
    c.set('apiKey', apiKey);
    await next();
    setResponseHeaders(c, NO_STORE);
  };
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

/** Write routes need a write key; read routes take either. Answered here, so the rate limit headers wrap the 403 too. */
export function requireScope(scope: ApiKeyScope): MiddlewareHandler<AppEnv & ApiKeyEnv> {
  return async (c, next) => {
    if (scope === 'write' && c.get('apiKey').scope !== 'write') {
      const error = new ForbiddenError('This route needs a key with the write scope; this key is read-only.');
      return problemResponse(c, problem(error.status, error.code, error.title, error.message));
    }
    await next();
  };
}
