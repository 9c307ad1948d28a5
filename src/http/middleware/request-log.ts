// One log line per answered request, tokens masked, and its count in the metrics: the app's middleware and the pre-router
// write the same line.
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { maskSecrets } from '../../domain/tokens.js';
import type { Logger } from '../../logger.js';
import type { WardenMetrics } from '../../metrics/recorder.js';

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * Errors at error level; the rest at info with LOG_REQUESTS=1 (`atInfo`), else at debug: a busy server logs nothing per
 * request unless asked to, and spends nothing on the line either. A 503 is a refusal, not an error: its cause (the
 * database unavailable, the ingest queue full) has a line of its own, once, not one per request refused while it lasts.
 * `url` may carry a query string: only its path is logged.
 */
export function logRequest(
  logger: Logger,
  requestId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
  atInfo = false,
): void {
  const failed = status >= 500 && status !== 503;
  const level = failed ? 'error' : atInfo ? 'info' : 'debug';
  if (!logger.isLevelEnabled(level)) return;
  const query = url.indexOf('?');
  const path = maskSecrets(query === -1 ? url : url.slice(0, query));
  const line: RequestLine & { requestId: string } = { requestId, method, path, status, ms: Math.round(ms * 10) / 10 };
  logger[level](line, failed ? 'request failed' : 'request');
}

export interface RequestLogOptions {
  /** LOG_REQUESTS=1: every answered request at info. */
  atInfo?: boolean | undefined;
  /** Counted by the route template it matched (`/api/v1/status/:slug`), never by its URL. */
  metrics?: WardenMetrics | undefined;
}

/** Gives the request its logger (with its id, set by the request-id middleware before this one), logs and counts its answer. */
export function requestLog(
  logger: Logger,
  options: RequestLogOptions = {},
): MiddlewareHandler<{ Variables: { requestId: string; log: Logger; route?: string } }> {
  const { atInfo = false, metrics } = options;
  return async (c, next) => {
    const requestId = c.get('requestId');
    c.set('log', logger.child({ requestId }));
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    logRequest(logger, requestId, c.req.method, c.req.path, c.res.status, ms, atInfo);
    // The label a handler gave (a page's form), else the template of the handler that answered; a request nothing
    // answered (a 404) counts under the last middleware pattern it passed (`/*`, `/api/v1/*`): bounded either way.
    metrics?.httpRoute(c.get('route') ?? (routePath(c) || '/*')).record(c.res.status, ms / 1000);
  };
}
