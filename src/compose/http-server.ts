// The listening socket: the pre-router's fast paths, the app built on first use, the readiness gate, the live streams
// on the same server. `listen` and `close` are the lifecycle's "http" part; the gate opens in its "serving" part.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../domain/clock.js';
import { answerUnreadableRequests, requiringHost } from '../http/client-error.js';
import type { App } from '../http/env.js';
import { attachLiveStream, type LiveStream } from '../http/live.js';
import { createRequestListener } from '../http/pre-router.js';
import { gateUntilReady, type ReadinessGate } from '../http/readiness-gate.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import type { ServiceParts } from './services.js';

export interface HttpServer {
  server: Server;
  gate: ReadinessGate;
  live: LiveStream;
  /** Listens on host:port; resolves with the port (the one the system chose for port 0). */
  listen(host: string, port: number): Promise<number>;
  /** Closes the live streams first (server.close() would wait for them), then the server, once its requests are answered. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  parts: ServiceParts;
  clock: Clock;
  logger: Logger;
  metrics?: WardenMetrics | undefined;
  /** WARDEN_FAST_PATH=0: every request through the app (the pre-router's answers are the app's, byte for byte). */
  fastPath: boolean;
  logRequests?: boolean | undefined;
}

export function createHttpServer({
  parts,
  clock,
  logger,
  metrics,
  fastPath,
  logRequests,
}: HttpServerOptions): HttpServer {
  // The router, the API, OpenAPI, MCP and the dashboard's routes: built by the first request the fast paths leave to
  // it (a page not in memory yet, an API call, /healthz through the app when the fast paths are off).
  const app = async (): Promise<App> => {
    const built = (await import('../http/app.js')).createApp(parts.appDeps);
    logger.debug('HTTP app built');
    return built;
  };
  // Requests the parser refuses, or that lack a Host, get problem+json like every other error (http/client-error.ts).
  const listener = createRequestListener(app, {
    fastPaths: fastPath ? parts.fastPaths : [],
    logger,
    logRequests,
    metrics,
  });
  const server = createServer({ requireHostHeader: false });
  // Until the gate opens, every request but /healthz and /readyz is answered 503, Retry-After, no-store (readiness-gate.ts).
  const gate = gateUntilReady(server, requiringHost(listener), { logger, metrics });
  answerUnreadableRequests(server);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  // The live streams (WS /s/{slug}/live, and the dashboard's WS /api/v1/live) upgrade on the same server.
  const live = attachLiveStream(server, {
    pages: parts.pages,
    pageAccess: parts.pageAccess,
    clock,
    logger,
    security: parts.security,
    organizations: parts.context,
    isReady: gate.isOpen,
  });
  metrics?.watchLiveClients(() => live.connections());
  let closing: Promise<void> | null = null;
  return {
    server,
    gate,
    live,
    listen: (host, port) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    close() {
      closing ??= (async () => {
        await live.close();
        if (!server.listening) return;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
      })();
      return closing;
    },
  };
}
