// Bearer relay-token authentication for /api/relay/*: 401 with WWW-Authenticate, else the relay is on the context; every answer no-store.
import type { MiddlewareHandler } from 'hono';
import type { Relay } from '../../domain/organization.js';
import { serviceContext } from '../../services/context.js';
import { authenticateRelay } from '../../services/relays/authenticate.js';
import type { AppEnv } from '../env.js';
import { problem, problemResponse } from '../problem.js';
import { NO_STORE, setResponseHeaders } from './org-auth.js';

export type RelayEnv = { Variables: AppEnv['Variables'] & { relay: Relay } };

const BEARER = /^Bearer +(\S+) *$/i;

export function relayAuth(): MiddlewareHandler<RelayEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const relay = await authenticateRelay(serviceContext(c.get('deps'), { logger: c.get('log') }), { token });
    if (!relay) {
      const detail =
        token === undefined
          ? 'A relay token is required: Authorization: Bearer wdr_…'
          : 'The relay token is unknown or revoked.';
      const challenge = token === undefined ? 'Bearer realm="warden"' : 'Bearer realm="warden", error="invalid_token"';
      return problemResponse(c, problem(401, 'unauthorized', 'Unauthorized', detail), {
        'www-authenticate': challenge,
        ...NO_STORE,
      });
    }
    c.set('relay', relay);
    await next();
    // Every answer to a relay (its config holds the monitors' secrets) is never stored by a cache.
    setResponseHeaders(c, NO_STORE);
  };
}
