// Records one heartbeat on the monitor its push token names; resolves once the check is committed.
import type { Clock } from '../../domain/clock.js';
import { NotFoundError } from '../../domain/errors.js';
import { displayPrefix, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import type { Ingest } from '../../runner/ingest.js';
import type { HeartbeatResult, PushAccepted } from './payload.js';
import type { PushTokenCache } from './token-cache.js';

export interface RecordHeartbeatDeps {
  ingest: Ingest;
  clock: Clock;
  tokens: PushTokenCache;
}

/** Throws NotFoundError for an unknown, revoked or malformed token, and for a paused monitor. */
export async function recordHeartbeat(deps: RecordHeartbeatDeps, token: string, result: HeartbeatResult): Promise<PushAccepted> {
  if (!isSecretOfKind('pushToken', token)) throw unknownToken(token);
  const hash = hashSecret(token);
  const monitorId = await deps.tokens.monitorFor(hash);
  if (monitorId === null) throw unknownToken(token);
  const outcome = await deps.ingest.record({ ...result, monitorId, source: 'push', checkedAt: deps.clock.now() });
  if (!outcome.stored) {
    // Deleted between the lookup and the commit: the token went with it.
    deps.tokens.forget(hash);
    throw unknownToken(token);
  }
  return { ok: true, monitor: outcome.monitorId, state: outcome.state, checkedAt: outcome.checkedAt };
}

function unknownToken(token: string): NotFoundError {
  return new NotFoundError('push token', isSecretOfKind('pushToken', token) ? `${displayPrefix(token)}…` : token.slice(0, 12));
}
