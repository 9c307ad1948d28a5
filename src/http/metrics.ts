// GET /metrics, Prometheus's scrape: on the main port to a bearer of WARDEN_METRICS_TOKEN, and on a port of its own
// (WARDEN_METRICS_PORT) to anyone who can reach it. Each process answers for itself (cluster mode: scrape every one).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import type { App } from './env.js';
import { PROBLEM_CONTENT_TYPE, problem, problemBody, problemResponse } from './problem.js';

export const METRICS_PATH = '/metrics';
const NO_STORE = { 'cache-control': 'no-store' };

/** The main port's /metrics; without a token it is not served there (a 404 like any unknown path). */
export function metricsRoute(app: App, metrics: WardenMetrics, token: string): void {
  const expected = digest(token);
  app.get(METRICS_PATH, async (c) => {
    const given = /^Bearer +(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    // Compared as digests of equal length, in constant time: the answer says nothing of how much of a guess was right.
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      const detail =
        given === undefined
          ? 'Send the metrics token as "Authorization: Bearer …" (WARDEN_METRICS_TOKEN).'
          : 'The metrics token is not valid.';
      return problemResponse(c, problem(401, 'unauthorized', 'Unauthorized', detail), {
        'www-authenticate': 'Bearer realm="metrics"',
        ...NO_STORE,
      });
    }
    return c.body(await metrics.scrape(), 200, { 'content-type': metrics.contentType, ...NO_STORE });
  });
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * A tiny server of its own on HOST:WARDEN_METRICS_PORT answering GET /metrics with no token: for a network only
 * Prometheus reaches (the port is not published, or firewalled). Everything else gets a 404 (or 405) problem.
 */
export async function listenForMetrics(
  metrics: WardenMetrics,
  options: { host: string; port: number; logger: Logger },
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const refuse = (status: 404 | 405, headers: Record<string, string> = {}) => {
      const body =
        status === 404
          ? problem(404, 'not-found', 'Not found', `Only ${METRICS_PATH} is served on this port.`)
          : problem(
              405,
              'method-not-allowed',
              'Method not allowed',
              `${req.method} is not supported at ${METRICS_PATH}; use GET, HEAD.`,
            );
      res.writeHead(status, { 'content-type': PROBLEM_CONTENT_TYPE, ...headers }).end(problemBody(body, path));
    };
    if (path !== METRICS_PATH) return refuse(404);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, { allow: 'GET, HEAD' });
    metrics.scrape().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': metrics.contentType, ...NO_STORE })
          .end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'collecting the metrics failed');
        res
          .writeHead(500, { 'content-type': PROBLEM_CONTENT_TYPE })
          .end(problemBody(problem(500, 'internal', 'Internal error', 'Something went wrong on our side.'), path));
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Prometheus keeps its connection open between scrapes.
        server.closeAllConnections();
      }),
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
