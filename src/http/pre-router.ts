// The server's request listener: a few hot paths answered straight from node:http (the pre-router), the rest by the app.
// Both give the request the same id, the same CORS and problem answers, and the same log line; WARDEN_FAST_PATH=0 turns
// the fast paths off, so every request goes through the app (test/e2e/fast-path-parity-*.test.ts hold them equal).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { HttpRoute, WardenMetrics } from '../metrics/recorder.js';
import { unreadableTargetResponse } from './client-error.js';
import type { App } from './env.js';
import { discardRestThenClose } from './middleware/json-body.js';
import { logRequest } from './middleware/request-log.js';
import { closingHeaders, PROBLEM_CONTENT_TYPE, problemBody, problemOf } from './problem.js';
import { requestIdFor } from './request-id.js';

export interface FastAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array | string | null;
  /** An unexpected error the answer (a 500) stands for: logged as the app logs its own. */
  failure?: unknown;
  /** The bounded label it is counted under in the metrics (`fast:page-json`); `fast:<path name>` when absent. */
  route?: string | undefined;
  /**
   * `headers` (with their content-length) as a prebuilt flat [name, value, …] list whose last value is the
   * `x-request-id` slot: written with `res.writeHead(status, list)` after filling the slot, no header object per request.
   */
  rawHeaders?: string[] | undefined;
}

/** One hot path: its answer to a request it takes (possibly later), or undefined when the request is the app's. */
export interface FastPath {
  name: string;
  answer(req: IncomingMessage): FastAnswer | Promise<FastAnswer> | undefined;
}

export interface RequestListenerOptions {
  fastPaths: readonly FastPath[];
  logger: Logger;
  /** LOG_REQUESTS=1: the fast path's request lines at info, as the app's. */
  logRequests?: boolean | undefined;
  /** Fast answers are counted as `fast:<path name>` (or the answer's own `route`), the app counts its own. */
  metrics?: WardenMetrics | undefined;
}

/**
 * `app`: the app, or what builds it on the first request the fast paths leave to it. The server passes the builder:
 * a server that only serves pages and takes pushes never loads the router, the API's schemas, the OpenAPI document,
 * the MCP SDK or the web Request/Response classes (docs/operations.md, Memory).
 */
export function createRequestListener(
  app: App | (() => Promise<App>),
  options: RequestListenerOptions,
): RequestListener {
  const { fastPaths, logger, logRequests = false, metrics } = options;
  /** Each path's counts, looked up once, not per request. */
  const pathRoutes = metrics ? fastPaths.map((path) => metrics.httpRoute(`fast:${path.name}`)) : [];
  const viaApp = appListener(app, (req, res, error) =>
    send(req, res, problemAnswer(error, req.url ?? '/', {}), performance.now(), -1),
  );
  if (fastPaths.length === 0) return viaApp;
  return (req, res) => {
    for (let i = 0; i < fastPaths.length; i++) {
      const answer = (fastPaths[i] as FastPath).answer(req);
      if (answer === undefined) continue;
      const started = performance.now();
      if (answer instanceof Promise)
        answer.then(
          (done) => send(req, res, done, started, i),
          (error: unknown) => send(req, res, problemAnswer(error, req.url ?? '/', {}), started, i),
        );
      else send(req, res, answer, started, i);
      return;
    }
    viaApp(req, res);
  };

  function routeOf(answer: FastAnswer, path: number): HttpRoute | undefined {
    if (!metrics) return undefined;
    return answer.route === undefined ? pathRoutes[path] : metrics.httpRoute(answer.route);
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: FastAnswer, started: number, path: number): void {
    const requestId = requestIdFor(req.headers['x-request-id']);
    if (answer.failure !== undefined) logger.child({ requestId }).error({ err: answer.failure }, 'unhandled error');
    if (res.destroyed) return;
    const raw = answer.rawHeaders;
    if (raw) {
      // A page's prebuilt list: writeHead serializes it at once, so the shared slot is free again when it returns.
      raw[raw.length - 1] = requestId;
      res.writeHead(answer.status, raw);
    } else {
      // Another answer's headers, with its length added.
      const headers =
        answer.body === null || 'content-length' in answer.headers
          ? { ...answer.headers, 'x-request-id': requestId }
          : { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)), 'x-request-id': requestId };
      res.writeHead(answer.status, headers);
    }
    res.end(req.method === 'HEAD' ? undefined : (answer.body ?? undefined));
    // A POST answered before its body ended (a 413): discard the rest for a moment, then close, as the app does.
    if (req.method === 'POST' && !req.complete) res.once('finish', () => discardRestThenClose(req));
    const ms = performance.now() - started;
    logRequest(logger, requestId, req.method ?? 'GET', req.url ?? '/', answer.status, ms, logRequests);
    routeOf(answer, path)?.record(answer.status, ms / 1000);
  }
}

/**
 * The app behind node:http (@hono/node-server's adapter), both loaded by the first request that needs them; requests
 * that come meanwhile wait for the same load. A load that fails answers 500 (`failed`) and is tried again by the next.
 */
function appListener(
  app: App | (() => Promise<App>),
  failed: (req: IncomingMessage, res: ServerResponse, error: unknown) => void,
): RequestListener {
  let listener: RequestListener | undefined;
  let loading: Promise<RequestListener> | undefined;
  const load = async (): Promise<RequestListener> => {
    const [{ getRequestListener }, built] = await Promise.all([
      import('@hono/node-server'),
      typeof app === 'function' ? app() : app,
    ]);
    listener = getRequestListener(built.fetch, { errorHandler: unreadableTargetResponse });
    return listener;
  };
  return (req, res) => {
    if (listener) {
      void listener(req, res);
      return;
    }
    loading ??= load();
    loading.then(
      (loaded) => void loaded(req, res),
      (error: unknown) => {
        loading = undefined;
        failed(req, res, error);
      },
    );
  };
}

/** An error as a fast path's answer: the app's problem mapping, body and headers, with the path's CORS headers. */
export function problemAnswer(error: unknown, url: string, cors: Readonly<Record<string, string>>): FastAnswer {
  const { problem, headers, unexpected } = problemOf(error);
  const query = url.indexOf('?');
  return {
    status: problem.status,
    headers: { ...cors, 'content-type': PROBLEM_CONTENT_TYPE, ...closingHeaders(problem.status), ...headers },
    body: problemBody(problem, query === -1 ? url : url.slice(0, query)),
    ...(unexpected ? { failure: error } : {}),
  };
}
