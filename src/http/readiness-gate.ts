// The server's door while it starts: from listening until its configuration is applied and its pages loaded, every
// request but /healthz and /readyz is answered 503 with Retry-After and `no-store`. Served early, a page would answer
// "not found" with its public cache lifetime, and a CDN in front would keep that for as long; a push or a relay batch
// answered 503 is sent again by its client, so nothing is lost. Once open, the server's listener is the app's own: the
// gate costs a request nothing after start-up.
import type { RequestListener, Server } from 'node:http';
import { maskSecrets } from '../domain/tokens.js';
import type { Logger } from '../logger.js';
import type { WardenMetrics } from '../metrics/recorder.js';
import { discardRestThenClose } from './middleware/json-body.js';
import { PROBLEM_CONTENT_TYPE, problem, problemBody } from './problem.js';
import { requestIdFor } from './request-id.js';

/** Seconds a client is told to wait (Retry-After) before it asks a starting server again. */
export const STARTING_RETRY_AFTER_SEC = 2;
export const STARTING_PROBLEM = problem(503, 'starting', 'Starting', 'The server is starting: try again in a moment.');
/** What an answer while starting carries besides its body: never kept by a cache, asked again after a moment. */
export const STARTING_HEADERS = {
  'cache-control': 'no-store',
  'retry-after': String(STARTING_RETRY_AFTER_SEC),
} as const;

/**
 * A page's script or widget on another site reads the 503 (and its Retry-After) instead of a failed fetch; the answer
 * holds nothing of anyone's, so any origin may read it.
 */
const READABLE_ANYWHERE = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After,X-Request-Id',
} as const;

/** The probes that tell a starting server from a ready one: answered as always, so /readyz can say "not yet". */
const ALWAYS_ANSWERED = new Set(['/healthz', '/readyz']);

export interface ReadinessGate {
  /** Whether the server serves everything (open() was called). */
  isOpen(): boolean;
  /** Serves every request: the server's request listener becomes the app's own, with nothing in front of it. */
  open(): void;
}

export interface ReadinessGateOptions {
  logger: Logger;
  /** The answers while starting are counted under the route `starting`. */
  metrics?: WardenMetrics | undefined;
}

/** Puts `listener` on `server` behind the gate: until open(), only /healthz and /readyz reach it. */
export function gateUntilReady(
  server: Server,
  listener: RequestListener,
  options: ReadinessGateOptions,
): ReadinessGate {
  const route = options.metrics?.httpRoute('starting');
  const starting: RequestListener = (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (ALWAYS_ANSWERED.has(path)) return listener(req, res);
    const requestId = requestIdFor(req.headers['x-request-id']);
    const bytes = problemBody(STARTING_PROBLEM, path);
    res.writeHead(503, {
      'content-type': PROBLEM_CONTENT_TYPE,
      ...STARTING_HEADERS,
      ...READABLE_ANYWHERE,
      'content-length': Buffer.byteLength(bytes),
      'x-request-id': requestId,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    // A body the answer did not wait for (a push, a relay batch): read off for a moment, then the connection closes.
    if (!req.complete) res.once('finish', () => discardRestThenClose(req));
    options.logger.debug(
      { requestId, method: req.method, path: maskSecrets(path), status: 503 },
      'request while starting',
    );
    route?.record(503, 0);
  };
  server.on('request', starting);
  let open = false;
  return {
    isOpen: () => open,
    open() {
      if (open) return;
      open = true;
      server.off('request', starting);
      server.on('request', listener);
    },
  };
}
