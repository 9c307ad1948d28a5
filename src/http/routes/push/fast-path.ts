// The pre-router's push path: a heartbeat with a well-formed token, stored and answered without the router.
import { isSecretOfKind } from '../../../domain/tokens.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import type { PushContext } from '../../../services/push/record.js';
import { corsHeadersOf, PUSH_CORS } from '../../cors.js';
import { readIncomingJson } from '../../middleware/json-body.js';
import { type FastPath, problemAnswer } from '../../pre-router.js';
import { PUSH_OK_HEADERS, pushErrorHeaders, recordPush } from './record-push.js';

const PREFIX = '/api/push/';
const CORS = corsHeadersOf(PUSH_CORS);
const OK_HEADERS = { ...CORS, ...PUSH_OK_HEADERS, 'content-type': 'application/json' };

/**
 * At thousands of pings a second, routing, middleware and the web Request/Response objects cost more than storing the
 * ping. The answer, a 200 or a problem, is the app's: the same function records it (recordPush, whose token rate limiter
 * is the app's too), the same mapping answers its errors, with the same extra headers (pushErrorHeaders). Anything else under /api/push/ (a preflight, a malformed token) is left to the app.
 */
export function pushFastPath(ctx: PushContext): FastPath {
  return {
    name: 'push',
    answer(req) {
      const url = req.url ?? '';
      if (!url.startsWith(PREFIX) || (req.method !== 'GET' && req.method !== 'POST')) return undefined;
      const q = url.indexOf('?');
      const token = url.slice(PREFIX.length, q === -1 ? undefined : q);
      if (!isSecretOfKind('pushToken', token)) return undefined;
      const recorded =
        req.method === 'GET'
          ? recordPush(ctx, token, { query: q === -1 ? {} : firstValues(url.slice(q + 1)) })
          : readIncomingJson(req, PUSH_LIMITS.bodyBytes).then((body) => recordPush(ctx, token, { body }));
      return recorded.then(
        (accepted) => ({ status: 200, headers: OK_HEADERS, body: JSON.stringify(accepted) }),
        (error: unknown) => {
          const extra = pushErrorHeaders(error);
          return problemAnswer(error, url, extra === undefined ? CORS : { ...CORS, ...extra });
        },
      );
    },
  };
}

/** The first value of each query parameter, as c.req.query() gives them. */
function firstValues(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}
