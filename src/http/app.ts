// createApp(deps): the whole HTTP surface built from explicit parts, so tests pass their own store, bus, clock and logger.
import { Hono } from 'hono';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import { ValidationError, WardenError } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/connect.js';
import { requestLog } from './middleware/request-log.js';
import { problem, problemResponse } from './problem.js';
import { healthRoutes } from './routes/health.js';

export interface AppDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  /** False while starting (config not applied yet) and while shutting down. */
  isReady: () => boolean;
}

export type AppEnv = { Variables: { deps: AppDeps; requestId: string; log: Logger } };

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', requestLog(deps.logger));

  healthRoutes(app);

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
