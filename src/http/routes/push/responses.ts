// What both push operations share, and the push fast path too: the token parameter, the documented answers, and recording.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { NotFoundError, OverloadedError, ValidationError } from '../../../domain/errors.js';
import { JSON_MAX_DEPTH } from '../../../domain/json-depth.js';
import type { PushOutcome } from '../../../metrics/recorder.js';
import { PUSH_LIMITS } from '../../../services/push/limits.js';
import { type PushAccepted, pushAcceptedSchema } from '../../../services/push/payload.js';
import { PushRateLimitedError } from '../../../services/push/rate-limit.js';
import { type PushContext, recordHeartbeat } from '../../../services/push/record.js';
import { BodyTooLargeError, type JsonBody } from '../../middleware/json-body.js';
import { jsonResponse, OVERLOADED_DESCRIPTION, problemResponse as problemDoc, pushTokenParam } from '../../openapi.js';
import { problemOf, problemResponse, sentIn } from '../../problem.js';

/** A malformed token is not a 400 but an unknown one (404), like any token no monitor has. */
export const pushTokenParamSchema = z.object({ token: pushTokenParam });

export const pushResponses = {
  200: jsonResponse(pushAcceptedSchema, 'The heartbeat is durably stored.'),
  400: problemDoc(400, `An invalid field (named in \`errors[].path\`), or a body that is not JSON or is nested deeper than ${JSON_MAX_DEPTH} levels. Nothing is stored.`),
  404: problemDoc(404, 'No enabled push monitor has this token (unknown, revoked, or the monitor is paused).'),
  413: problemDoc(413, `A body over ${PUSH_LIMITS.bodyBytes} bytes (it is not read further). Nothing is stored.`),
  429: problemDoc(429, 'The token sent more pings than its rate allows (WARDEN_PUSH_RATE a second, bursts of WARDEN_PUSH_BURST); retry after `Retry-After` seconds. Nothing is stored.'),
  503: problemDoc(503, OVERLOADED_DESCRIPTION),
};

/** A stored ping's answer is never cached. */
export const PUSH_OK_HEADERS = { 'cache-control': 'no-store' } as const;

/**
 * Records the heartbeat of a GET's query or a POST's body, resolving once it is committed; errors name the part of the
 * request they are about (`query.status`, `body.players`).
 */
export function recordPush(ctx: PushContext, token: string, from: { query: Record<string, string> } | { body: JsonBody }): Promise<PushAccepted> {
  const recorded = recordFrom(ctx, token, from);
  const metrics = ctx.metrics;
  if (!metrics) return recorded;
  return recorded.then(
    (accepted) => {
      metrics.push('accepted');
      return accepted;
    },
    (error: unknown) => {
      metrics.push(pushRefusal(error));
      throw error;
    },
  );
}

async function recordFrom(ctx: PushContext, token: string, from: { query: Record<string, string> } | { body: JsonBody }): Promise<PushAccepted> {
  if ('query' in from) return sentIn('query', recordHeartbeat(ctx, { token, query: from.query }));
  if (from.body.kind === 'too-large') throw new BodyTooLargeError(from.body.maxBytes);
  return sentIn('body', recordHeartbeat(ctx, { token, body: from.body.kind === 'json' ? from.body.value : undefined }));
}

/** Why a heartbeat was refused, as warden_pushes_total counts it. */
function pushRefusal(error: unknown): PushOutcome {
  if (error instanceof PushRateLimitedError) return 'rate_limited';
  if (error instanceof NotFoundError) return 'unknown_token';
  if (error instanceof ValidationError) return 'invalid';
  if (error instanceof BodyTooLargeError) return 'too_large';
  if (error instanceof OverloadedError) return 'overloaded';
  return 'error';
}

/** Headers a push error's answer adds to the problem's own, the same from the app and the pre-router. */
export function pushErrorHeaders(error: unknown): Record<string, string> | undefined {
  if (error instanceof PushRateLimitedError) return { 'retry-after': String(error.retryAfterSec) };
  return undefined;
}

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
