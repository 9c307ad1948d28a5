// One log line per answered request, tokens masked: the app's middleware and the pre-router write the same line.
import type { MiddlewareHandler } from 'hono';
import { maskSecrets } from '../../domain/tokens.js';
import type { Logger } from '../../logger.js';

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * Errors at error level, everything else at debug: a busy server logs nothing per request unless asked to, and spends
 * nothing on the line either. `url` may carry a query string: only its path is logged.
 */
export function logRequest(logger: Logger, requestId: string, method: string, url: string, status: number, started: number): void {
  const level = status >= 500 ? 'error' : 'debug';
  if (!logger.isLevelEnabled(level)) return;
  const query = url.indexOf('?');
  const path = maskSecrets(query === -1 ? url : url.slice(0, query));
  const line: RequestLine = { method, path, status, ms: Math.round((performance.now() - started) * 10) / 10 };
  logger.child({ requestId })[level](line, status >= 500 ? 'request failed' : 'request');
}

/** Gives the request its logger (with its id, set by the request-id middleware before this one) and logs its answer. */
export function requestLog(logger: Logger): MiddlewareHandler<{ Variables: { requestId: string; log: Logger } }> {
  return async (c, next) => {
    const requestId = c.get('requestId');
    c.set('log', logger.child({ requestId }));
    const started = performance.now();
    await next();
    logRequest(logger, requestId, c.req.method, c.req.path, c.res.status, started);
  };
}
