// Records one heartbeat on the monitor its push token names; resolves once the check is committed.
import type { Clock } from '../../domain/clock.js';
import { NotFoundError } from '../../domain/errors.js';
import { displayPrefix, hashSecret, isSecretOfKind } from '../../domain/tokens.js';
import type { Ingest } from '../../runner/ingest.js';
import type { Db } from '../../store/connect.js';
import { findMonitorByPushTokenHash } from '../../store/monitors.js';
import type { HeartbeatResult, PushAccepted } from './payload.js';

export interface RecordHeartbeatDeps {
  db: Db;
  ingest: Ingest;
  clock: Clock;
}

/** Throws NotFoundError for an unknown, revoked or malformed token, and for a paused monitor. */
export async function recordHeartbeat(deps: RecordHeartbeatDeps, token: string, result: HeartbeatResult): Promise<PushAccepted> {
  const monitorId = await monitorForToken(deps.db, token);
  const outcome = await deps.ingest.record({ ...result, monitorId, source: 'push', checkedAt: deps.clock.now() });
  // Deleted between the lookup and the commit: the token is gone with it.
  if (!outcome.stored) throw unknownToken(token);
  return { ok: true, monitor: outcome.monitorId, state: outcome.state, checkedAt: outcome.checkedAt };
}

async function monitorForToken(db: Db, token: string): Promise<string> {
  if (!isSecretOfKind('pushToken', token)) throw unknownToken(token);
  const monitor = await findMonitorByPushTokenHash(db, hashSecret(token));
  if (monitor?.runOn !== 'push' || !monitor.enabled) throw unknownToken(token);
  return monitor.id;
}

function unknownToken(token: string): NotFoundError {
  return new NotFoundError('push token', isSecretOfKind('pushToken', token) ? `${displayPrefix(token)}…` : token.slice(0, 12));
}
