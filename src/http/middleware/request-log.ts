// Gives every request an id (X-Request-Id, taken from the client when sane) and logs one line per response, tokens masked.

import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { maskSecrets } from '../../domain/tokens.js';
import type { Logger } from '../../logger.js';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLog(logger: Logger): MiddlewareHandler<{ Variables: { requestId: string; log: Logger } }> {
  return async (c, next) => {
    const offered = c.req.header('x-request-id');
    const requestId = offered && CLIENT_ID.test(offered) ? offered : randomUUID();
    const log = logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    const status = c.res.status;
    const line = {
      method: c.req.method,
      path: maskSecrets(c.req.path),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (status >= 500) log.error(line, 'request failed');
    else log.debug(line, 'request');
  };
}
