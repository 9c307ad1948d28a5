// createApp(deps): the whole HTTP surface built from explicit parts, so tests pass their own store, bus, clock and logger.

import type { Hook } from '@hono/zod-openapi';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import { ValidationError, WardenError } from '../domain/errors.js';
import { formatIssuePath } from '../domain/issue-path.js';
import type { Logger } from '../logger.js';
import type { Ingest } from '../runner/ingest.js';
import type { PageAccess } from '../services/pages/page-access.js';
import type { PageCache } from '../services/pages/page-cache.js';
import type { Store } from '../store/connect.js';
import { requestLog } from './middleware/request-log.js';
import { problem, problemResponse } from './problem.js';
import { apiRoutes } from './routes/api/index.js';
import { healthRoutes } from './routes/health.js';
import { pushRoutes } from './routes/push/index.js';
import { relayRoutes } from './routes/relay/index.js';
import { statusRoutes } from './routes/status/index.js';

export interface AppDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  ingest: Ingest;
  /** Snapshots and rendered forms of pages, kept in memory. */
  pages: PageCache;
  pageAccess: PageAccess;
  /** Public address used in links (feeds, llms.txt, page URLs), without a trailing slash. */
  baseUrl: string;
  /** False while starting (config not applied yet) and while shutting down. */
  isReady: () => boolean;
}

export type AppEnv = { Variables: { deps: AppDeps; requestId: string; log: Logger } };
export type App = OpenAPIHono<AppEnv>;

/** Every request-validation failure becomes a 400 problem+json naming each wrong field (`body.name`, `query.hours`). */
export const validationHook: Hook<unknown, Env, string, unknown> = (result) => {
  if (result.success) return;
  const where = result.target === 'json' ? 'body' : result.target === 'param' ? 'path' : result.target;
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: formatIssuePath([where, ...issue.path]), message: issue.message })),
  );
};

export function createApp(deps: AppDeps): App {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as Hook<unknown, AppEnv, string, unknown> });
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', requestLog(deps.logger));

  healthRoutes(app);
  statusRoutes(app);
  pushRoutes(app);
  relayRoutes(app);
  apiRoutes(app);
  app.doc31('/api/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Warden API',
      version: '1.0.0',
      description: 'Status pages and monitoring for game servers and web services.',
    },
    servers: [{ url: c.get('deps').baseUrl }],
  }));

  app.notFound((c) => problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`)));
  app.onError((error, c) => {
    if (error instanceof ValidationError)
      return problemResponse(c, problem(error.status, error.code, error.title, error.message, error.issues));
    if (error instanceof WardenError) return problemResponse(c, problem(error.status, error.code, error.title, error.message));
    c.get('log')?.error({ err: error }, 'unhandled error');
    return problemResponse(c, problem(500, 'internal', 'Internal error', 'Something went wrong on our side.'));
  });
  return app;
}
