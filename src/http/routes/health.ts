// Liveness (/healthz) and readiness (/readyz: the database answers) for load balancers and orchestrators; in cluster
// mode /readyz also shows the instance, its peers and the leases it holds.
import { checkDatabase } from '../../services/database.js';
import type { App } from '../app.js';
import { problem, problemResponse } from '../problem.js';

export function healthRoutes(app: App): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }));
  app.on('HEAD', '/healthz', (c) => c.body(null, 200));
  app.get('/readyz', async (c) => {
    const deps = c.get('deps');
    let database: Awaited<ReturnType<typeof checkDatabase>>['database'];
    try {
      ({ database } = await checkDatabase(deps));
    } catch (error) {
      c.get('log').warn({ err: error }, 'database unreachable');
      return problemResponse(c, problem(503, 'not-ready', 'Not ready', 'The database is unreachable.'));
    }
    if (!deps.isReady()) return problemResponse(c, problem(503, 'not-ready', 'Not ready', 'The server is starting or stopping.'));
    return c.json({ status: 'ready', database, ...(deps.clusterView ? { cluster: deps.clusterView() } : {}) }, 200, { 'cache-control': 'no-store' });
  });
}
