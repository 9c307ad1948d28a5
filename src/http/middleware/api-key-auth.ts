// Authenticates the organization API: a Bearer API key (401 otherwise), then the scope a route needs (403 otherwise).
import type { MiddlewareHandler } from 'hono';
import { ForbiddenError } from '../../domain/errors.js';
import type { ApiKey, ApiKeyScope } from '../../domain/organization.js';
import { authenticateApiKey } from '../../services/api-keys/authenticate.js';
import type { AppEnv } from '../app.js';
import { problem, problemResponse } from '../problem.js';

export type ApiKeyEnv = { Variables: { apiKey: ApiKey } };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="warden"';

export function apiKeyAuth(): MiddlewareHandler<AppEnv & ApiKeyEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (secret === undefined)
      return problemResponse(
        c,
        problem(401, 'unauthorized', 'Unauthorized', 'Send an API key as "Authorization: Bearer wdn_…".'),
        { 'www-authenticate': CHALLENGE },
      );
    const apiKey = await authenticateApiKey(c.get('deps'), { secret });
    if (!apiKey)
      return problemResponse(
        c,
        problem(401, 'unauthorized', 'Unauthorized', 'The API key is not valid: it is malformed, unknown or revoked.'),
        { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` },
      );
    c.set('apiKey', apiKey);
    await next();
  };
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
