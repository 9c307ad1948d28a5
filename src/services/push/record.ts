// Records one heartbeat on the monitor its push token names, from the GET query or the POST body; resolves once it is committed.
import { NotFoundError } from '../../domain/errors.js';
import { displayPrefix, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import { parseInput } from '../context.js';
import type { IngestContext } from '../runtime.js';
import { type PushAccepted, pushBodySchema, pushQuerySchema, resultFromBody, resultFromQuery } from './payload.js';
import { PushRateLimitedError, type PushRateLimiter } from './rate-limit.js';
import type { PushTokenCache } from './token-cache.js';

export interface PushContext extends IngestContext {
  pushTokens: PushTokenCache;
  /** One per process, shared by every push path (the pre-router's and the app's). */
  pushLimiter: PushRateLimiter;
}

/** What a heartbeat carries: the query of a GET, or the JSON body of a POST (undefined when empty). */
export type HeartbeatInput = { token: string } & ({ query: Record<string, string> } | { body: unknown });

/**
 * Throws a ValidationError naming the wrong field of the query or body (`status`, `players`), and NotFoundError for an
 * unknown, revoked or malformed token and for a paused monitor, PushRateLimitedError when the token is over its rate
 * (nothing is stored then).
 */
export async function recordHeartbeat(ctx: PushContext, input: HeartbeatInput): Promise<PushAccepted> {
  const result =
    'query' in input
      ? resultFromQuery(parseInput(pushQuerySchema, input.query))
      : resultFromBody(parseInput(pushBodySchema, input.body ?? {}));
  const { token } = input;
  if (!isSecretOfKind('pushToken', token)) throw unknownToken(token);
  const hash = hashSecret(token);
  const monitorId = await ctx.pushTokens.monitorFor(hash);
  if (monitorId === null) throw unknownToken(token);
  const now = ctx.clock.now();
  const taken = ctx.pushLimiter.take(hash, now);
  // One process: answered synchronously, no extra turn of the event loop on the hot path.
  const decision = taken instanceof Promise ? await taken : taken;
  if (!decision.allowed) throw new PushRateLimitedError(decision.retryAfterSec, ctx.pushLimiter);
  const outcome = await ctx.ingest.record({ ...result, monitorId, source: 'push', checkedAt: now });
  if (!outcome.stored) {
    // Deleted between the lookup and the commit: the token went with it.
    ctx.pushTokens.forget(hash);
    throw unknownToken(token);
  }
  return { ok: true, monitor: outcome.monitorId, state: outcome.state, checkedAt: outcome.checkedAt };
}

function unknownToken(token: string): NotFoundError {
  return new NotFoundError(
    'push token',
    isSecretOfKind('pushToken', token) ? `${displayPrefix(token)}…` : token.slice(0, 12),
  );
}
