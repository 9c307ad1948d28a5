// What both push paths share at run time (the pre-router's and the app's): recording a heartbeat, counting how it went,
// and the extra headers of its answers. Free of the router and the OpenAPI documents, which the pre-router never loads.
import { NotFoundError, OverloadedError, StorageUnavailableError, ValidationError } from '../../../domain/errors.js';
import type { PushOutcome } from '../../../metrics/recorder.js';
import type { PushAccepted } from '../../../services/push/payload.js';
import { PushRateLimitedError } from '../../../services/push/rate-limit.js';
import { type PushContext, recordHeartbeat } from '../../../services/push/record.js';
import { BodyTooLargeError, type JsonBody } from '../../middleware/json-body.js';
import { sentIn } from '../../problem.js';

/** A stored ping's answer is never cached. */
export const PUSH_OK_HEADERS = { 'cache-control': 'no-store' } as const;

/**
 * Records the heartbeat of a GET's query or a POST's body, resolving once it is committed; errors name the part of the
 * request they are about (`query.status`, `body.players`).
 */
export function recordPush(
  ctx: PushContext,
  token: string,
  from: { query: Record<string, string> } | { body: JsonBody },
): Promise<PushAccepted> {
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

async function recordFrom(
  ctx: PushContext,
  token: string,
  from: { query: Record<string, string> } | { body: JsonBody },
): Promise<PushAccepted> {
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
  if (error instanceof StorageUnavailableError) return 'unavailable';
  return 'error';
}

/** Headers a push error's answer adds to the problem's own, the same from the app and the pre-router. */
export function pushErrorHeaders(error: unknown): Record<string, string> | undefined {
  if (error instanceof PushRateLimitedError) return { 'retry-after': String(error.retryAfterSec) };
  return undefined;
}
