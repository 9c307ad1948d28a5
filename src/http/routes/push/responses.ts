// What both push operations share, and the push fast path too: the token parameter, the documented answers, and recording.
import { z } from '@hono/zod-openapi';
import { ValidationError } from '../../../domain/errors.js';
import { type PushAccepted, pushAcceptedSchema } from '../../../services/push/payload.js';
import { type PushContext, recordHeartbeat } from '../../../services/push/record.js';
import { type JsonBody, tooLargeMessage } from '../../middleware/json-body.js';
import { jsonResponse, OVERLOADED_DESCRIPTION, problemResponse, pushTokenParam } from '../../openapi.js';
import { sentIn } from '../../problem.js';

/** A malformed token is not a 400 but an unknown one (404), like any token no monitor has. */
export const pushTokenParamSchema = z.object({ token: pushTokenParam });

export const pushResponses = {
  200: jsonResponse(pushAcceptedSchema, 'The heartbeat is durably stored.'),
  400: problemResponse(400, 'An invalid field (named in `errors[].path`), a body that is not JSON, or a body over 16 KiB. Nothing is stored.'),
  404: problemResponse(404, 'No enabled push monitor has this token (unknown, revoked, or the monitor is paused).'),
  503: problemResponse(503, OVERLOADED_DESCRIPTION),
};

/** A stored ping's answer is never cached. */
export const PUSH_OK_HEADERS = { 'cache-control': 'no-store' } as const;

/**
 * Records the heartbeat of a GET's query or a POST's body, resolving once it is committed; errors name the part of the
 * request they are about (`query.status`, `body.players`).
 */
export async function recordPush(ctx: PushContext, token: string, from: { query: Record<string, string> } | { body: JsonBody }): Promise<PushAccepted> {
  if ('query' in from) return sentIn('query', recordHeartbeat(ctx, { token, query: from.query }));
  if (from.body.kind === 'too-large') throw new ValidationError([{ path: 'body', message: tooLargeMessage(from.body.maxBytes) }], 'The body is too large.');
  return sentIn('body', recordHeartbeat(ctx, { token, body: from.body.kind === 'json' ? from.body.value : undefined }));
}
