// Heartbeats straight from node:http: a well-formed ping on a known token is stored and answered without the router;
// anything else (bad input, unknown token, preflight) goes to the app, which answers it with the same schemas.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NotFoundError } from '../../../domain/errors.js';
import { isSecretOfKind } from '../../../domain/tokens.js';
import type { Logger } from '../../../logger.js';
import { IngestOverloadedError } from '../../../runner/ingest.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { type HeartbeatResult, pushBodySchema, pushQuerySchema, resultFromBody, resultFromQuery } from '../../../services/push/payload.js';
import { type RecordHeartbeatDeps, recordHeartbeat } from '../../../services/push/record.js';
import { OVERLOADED_RETRY_AFTER_SEC } from '../../ingest-overloaded.js';
import { type IncomingWithBody, parseJsonBody, readIncoming } from '../../middleware/json-body.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../../problem.js';

const PREFIX = '/api/push/';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Hands a request to the app (its node:http listener); a body already read travels in `rawBody`. */
export type ToApp = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Returns whether it took the request; when it did, the answer is its own or the app's. */
export type PushFastPath = (req: IncomingMessage, res: ServerResponse, toApp: ToApp) => boolean;

/**
 * The push hot path skips routing, middleware and the web Request/Response objects: at thousands of pings a
 * second they cost more than storing the ping. The 200 it writes is the app's: same body, same headers.
 */
export function createPushFastPath(deps: RecordHeartbeatDeps & { logger: Logger }): PushFastPath {
  return (req, res, toApp) => {
    const url = req.url ?? '';
    if (!url.startsWith(PREFIX) || (req.method !== 'GET' && req.method !== 'POST')) return false;
    const q = url.indexOf('?');
    const token = url.slice(PREFIX.length, q === -1 ? undefined : q);
    if (!isSecretOfKind('pushToken', token)) return false;
    if (req.method === 'GET') {
      const query = pushQuerySchema.safeParse(q === -1 ? {} : firstValues(url.slice(q + 1)));
      if (!query.success) return false;
      void answer(req, res, token, resultFromQuery(query.data), toApp);
      return true;
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > PUSH_LIMITS.bodyBytes) return false;
    void readIncoming(req, PUSH_LIMITS.bodyBytes).then(
      (bytes) => {
        (req as IncomingWithBody).rawBody = bytes;
        const result = bytes.length > PUSH_LIMITS.bodyBytes ? null : bodyResult(bytes);
        if (result) return answer(req, res, token, result, toApp);
        return toApp(req, res);
      },
      () => res.destroy(),
    );
    return true;
  };

  async function answer(req: IncomingMessage, res: ServerResponse, token: string, result: HeartbeatResult, toApp: ToApp): Promise<void> {
    const requestId = requestIdOf(req);
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store', 'x-request-id': requestId };
    let body: string;
    let status = 200;
    try {
      body = JSON.stringify(await recordHeartbeat(deps, token, result));
      res.writeHead(status, { ...headers, 'content-type': 'application/json' });
    } catch (error) {
      if (error instanceof NotFoundError) {
        toApp(req, res);
        return;
      }
      const overloaded = error instanceof IngestOverloadedError;
      if (!overloaded) deps.logger.child({ requestId }).error({ err: error }, 'unhandled error');
      status = overloaded ? 503 : 500;
      const path = (req.url ?? '').split('?')[0];
      body = JSON.stringify({
        ...(overloaded
          ? problem(503, 'overloaded', 'Overloaded', 'Too many results are waiting to be stored; retry shortly.')
          : problem(500, 'internal', 'Internal error', 'Something went wrong on our side.')),
        instance: path,
      });
      res.writeHead(status, { ...headers, 'content-type': PROBLEM_CONTENT_TYPE, ...(overloaded ? { 'retry-after': String(OVERLOADED_RETRY_AFTER_SEC) } : {}) });
    }
    res.end(body);
  }
}

/** A valid body as a result, or null for the app to explain what is wrong with it. */
function bodyResult(bytes: Buffer): HeartbeatResult | null {
  try {
    const json = parseJsonBody(bytes);
    const parsed = pushBodySchema.safeParse(json.kind === 'json' ? json.value : {});
    return parsed.success ? resultFromBody(parsed.data) : null;
  } catch {
    return null;
  }
}

/** The first value of each query parameter, as c.req.query() gives them. */
function firstValues(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

function requestIdOf(req: IncomingMessage): string {
  const offered = req.headers['x-request-id'];
  return typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
}
