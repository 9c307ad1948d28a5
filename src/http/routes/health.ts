// Liveness (/healthz) and readiness (/readyz: the database answers) for load balancers and orchestrators.
import type { App } from '../app.js';

import { problem, problemResponse } from '../problem.js';

export function healthRoutes(app: App): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }));
  app.on('HEAD', '/healthz', (c) => c.body(null, 200));
  app.get('/readyz', async (c) => {
    const { store, isReady } = c.get('deps');
    try {
      await store.ping();
    } catch (error) {
      c.get('log').warn({ err: error }, 'database unreachable');
      return problemResponse(c, problem(503, 'not-ready', 'Not ready', 'The database is unreachable.'));
    }
    if (!isReady()) return problemResponse(c, problem(503, 'not-ready', 'Not ready', 'The server is starting or stopping.'));
    return c.json({ status: 'ready', database: store.dialect }, 200, { 'cache-control': 'no-store' });
  });
}
