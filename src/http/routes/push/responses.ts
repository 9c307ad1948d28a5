// What both push operations of the app share: the token parameter, the documented answers, and the answer itself.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { JSON_MAX_DEPTH } from '../../../domain/json-depth.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { type PushAccepted, pushAcceptedSchema } from '../../../services/push/payload.js';
import {
  jsonResponse,
  OVERLOADED_DESCRIPTION,
  problemResponse as problemDoc,
  pushTokenParam,
  security,
  TAGS,
} from '../../openapi.js';
import { problemOf, problemResponse } from '../../problem.js';
import { PUSH_OK_HEADERS, pushErrorHeaders } from './record-push.js';

/** A malformed token is not a 400 but an unknown one (404), like any token no monitor has. */
export const pushTokenParamSchema = z.object({ token: pushTokenParam });

export const pushResponses = {
  200: jsonResponse(pushAcceptedSchema, 'The heartbeat is durably stored.'),
  400: problemDoc(
    400,
    `An invalid field (named in \`errors[].path\`), or a body that is not JSON or is nested deeper than ${JSON_MAX_DEPTH} levels. Nothing is stored.`,
  ),
  404: problemDoc(404, 'No enabled push monitor has this token (unknown, revoked, or the monitor is paused).'),
  413: problemDoc(413, `A body over ${PUSH_LIMITS.bodyBytes} bytes (it is not read further). Nothing is stored.`),
  429: problemDoc(
    429,
    'The token sent more pings than its rate allows (WARDEN_PUSH_RATE a second, bursts of WARDEN_PUSH_BURST); retry after `Retry-After` seconds. Nothing is stored.',
  ),
  503: problemDoc(503, OVERLOADED_DESCRIPTION),
};

/** What both push operations document alike: where they are, their tag, no security (the token is in the path). */
export const pushRouteBase = {
  path: '/api/push/{token}' as const,
  tags: [TAGS.push.name],
  security: security.none,
};

/** The app's answer to a push: 200 once stored, or the problem (with pushErrorHeaders); other errors go to onError. */
export async function answerPush(c: Context, recorded: Promise<PushAccepted>): Promise<Response> {
  try {
    return c.json(await recorded, 200, PUSH_OK_HEADERS);
  } catch (error) {
    const extra = pushErrorHeaders(error);
    if (extra === undefined) throw error;
    const answer = problemOf(error);
    return problemResponse(c, answer.problem, { ...answer.headers, ...extra });
  }
}
