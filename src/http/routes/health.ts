// Liveness (/healthz) and readiness (/readyz: started, and the database answers) for load balancers and orchestrators;
// both answer while the server starts (every other route is 503 then, readiness-gate.ts), /readyz with a 503 until it
// is ready. In cluster mode /readyz also shows the instance, its peers and the leases it holds. Answered by the
// pre-router (healthFastPath) and by the app alike, with the same bytes: a probe every few seconds never makes the
// server build its app.
import type { ClusterView } from '../../domain/cluster.js';
import { type Logger, logFailure } from '../../logger.js';
import type { ServiceContext } from '../../services/context.js';
import { checkDatabase } from '../../services/database.js';
import type { App } from '../env.js';
import type { FastAnswer, FastPath } from '../pre-router.js';
import { PROBLEM_CONTENT_TYPE, type Problem, problem, problemBody, problemResponse } from '../problem.js';
import { STARTING_HEADERS } from '../readiness-gate.js';

export interface HealthDeps extends ServiceContext {
  isReady: () => boolean;
  clusterView?: (() => ClusterView) | undefined;
}

const NO_STORE = { 'cache-control': 'no-store' } as const;
const JSON_NO_STORE = { ...NO_STORE, 'content-type': 'application/json' } as const;
/** A 503 of /readyz: never cached, asked again after a moment (the server starting, stopping, or its database away). */
const NOT_READY_HEADERS = STARTING_HEADERS;
const LIVE_BODY = JSON.stringify({ status: 'ok' });

/** /readyz's answer: the body of a 200, or the problem of a 503 (the database unreachable, or starting or stopping). */
async function readiness(
  deps: HealthDeps,
  log: Logger,
): Promise<{ ready: Record<string, unknown> } | { problem: Problem }> {
  let database: Awaited<ReturnType<typeof checkDatabase>>['database'];
  try {
    ({ database } = await checkDatabase(deps));
  } catch (error) {
    // A storage outage is logged by the storage watch once; each probe during it at debug only.
    logFailure(log, error, 'database unreachable');
    return { problem: problem(503, 'not-ready', 'Not ready', 'The database is unreachable.') };
  }
  if (!deps.isReady())
    return { problem: problem(503, 'not-ready', 'Not ready', 'The server is starting or stopping.') };
  return { ready: { status: 'ready', database, ...(deps.clusterView ? { cluster: deps.clusterView() } : {}) } };
}

export function healthRoutes(app: App, deps: HealthDeps): void {
  app.get('/healthz', (c) => c.body(LIVE_BODY, 200, JSON_NO_STORE));
  app.get('/readyz', async (c) => {
    const answer = await readiness(deps, c.get('log'));
    if ('problem' in answer) return problemResponse(c, answer.problem, { ...NOT_READY_HEADERS });
    return c.json(answer.ready, 200, NO_STORE);
  });
}

/** The pre-router's /healthz and /readyz: the app's answers, byte for byte, without the app. */
export function healthFastPath(deps: HealthDeps): FastPath {
  const live: FastAnswer = { status: 200, headers: JSON_NO_STORE, body: LIVE_BODY };
  return {
    name: 'health',
    answer(req) {
      const url = req.url;
      // HEAD is answered as the GET (its headers, no body), as the router does.
      if (url === '/healthz') return req.method === 'GET' || req.method === 'HEAD' ? live : undefined;
      if (url !== '/readyz' || req.method !== 'GET') return undefined;
      return readiness(deps, deps.logger).then((answer): FastAnswer => {
        if ('problem' in answer)
          return {
            status: 503,
            headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...NOT_READY_HEADERS },
            body: problemBody(answer.problem, url),
          };
        return { status: 200, headers: JSON_NO_STORE, body: JSON.stringify(answer.ready) };
      });
    },
  };
}
