// The server's last parts: the listening socket (and WARDEN_METRICS_PORT's), the configuration applied while requests
// are answered 503, then `serving`, which opens the gate — and, stopping first, closes the server.
import { startDemoHeartbeat } from '../config/demo.js';
import { listenForLocalSetup } from '../http/local-setup.js';
import { listenForMetrics, METRICS_PATH } from '../http/metrics.js';
import type { Part } from '../runtime/lifecycle.js';
import { setupRequired } from '../services/accounts/setup.js';
import { openSetupCode } from '../services/accounts/setup-code.js';
import { type Boot, made } from './boot.js';
import { applyStartConfig, logSync } from './first-run.js';
import { createHttpServer } from './http-server.js';

/** The listening socket (and WARDEN_METRICS_PORT's), then the configuration applied: served 503 until `serving` starts. */
export function serverParts(boot: Boot): Part[] {
  const { settings, logger, metrics } = boot;
  const parts: Part[] = [
    {
      name: 'http',
      start: async () => {
        const http = createHttpServer({
          parts: made(boot.services, 'the services'),
          clock: boot.clock,
          logger,
          metrics,
          fastPath: settings.fastPath,
          logRequests: settings.logRequests,
        });
        boot.http = http;
        boot.port = await http.listen(settings.host, settings.port);
        boot.url = `http://${settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host}:${boot.port}`;
        boot.baseUrl = (settings.baseUrl ?? boot.url).replace(/\/+$/, '');
      },
      stop: () => boot.http?.close(),
    },
  ];
  // WARDEN_METRICS_PORT: /metrics without a token on a port of its own (the token, if any, is never logged).
  const metricsPort = settings.metrics?.port;
  if (metrics && metricsPort !== undefined)
    parts.push({
      name: 'metrics-port',
      start: async () => {
        const listener = await listenForMetrics(metrics, { host: settings.host, port: metricsPort, logger });
        boot.metricsListener = listener;
        logger.info({ port: listener.port }, `metrics served on port ${listener.port} at ${METRICS_PATH}`);
      },
      stop: () => boot.metricsListener?.close(),
    });
  parts.push({
    name: 'config',
    start: async () => {
      if (metrics && settings.metrics?.token !== undefined)
        logger.info(`metrics served at ${boot.url}${METRICS_PATH} to a bearer of WARDEN_METRICS_TOKEN`);
      boot.applied = await applyStartConfig(made(boot.services, 'the services').context, boot.fileConfig, boot.port);
      const { syncReport } = boot.applied;
      if (syncReport) logSync(logger, syncReport, boot.fileConfig ? settings.configFile : 'built-in demo');
      else logger.info('no config file: serving the organizations the database holds');
      if (boot.applied.demoRetired)
        logger.info(
          'the built-in demo is paused and off the public lists now that an organization of your own exists; `warden demo remove` deletes it',
        );
    },
    stop: () => {},
  });
  // WARDEN_LOCAL_SETUP: while no account exists, the setup screen opened on this machine gets its code by itself.
  if (settings.localSetup)
    parts.push({
      name: 'local-setup',
      start: async () => {
        const { context } = made(boot.services, 'the services');
        if (!(await setupRequired(context))) return;
        boot.localSetup = await listenForLocalSetup({
          mainPort: boot.port,
          issue: () => openSetupCode(context),
          logger,
        });
      },
      stop: () => boot.localSetup?.close(),
    });
  return parts;
}

/** The last to start, the first to stop: the gate opens (and the demo's heartbeat beats); stopped, no new connections. */
export function servingPart(boot: Boot): Part {
  const { logger } = boot;
  return {
    name: 'serving',
    start: () => {
      made(boot.http, 'the server').gate.open();
      const token = boot.applied.demoPushToken;
      if (token)
        boot.stopDemo = startDemoHeartbeat(`http://127.0.0.1:${boot.port}`, token, (error) =>
          logger.debug({ err: error }, 'demo heartbeat failed'),
        );
      boot.ready = true;
    },
    // The requests in flight are finished (the live streams closed first) before anything they use stops.
    stop: async () => {
      boot.ready = false;
      boot.stopDemo();
      logger.info('shutting down: no new connections, finishing requests in flight');
      await boot.http?.close();
    },
  };
}
