// Issues a new push token for a heartbeat (push) monitor, revoking the old one; the secret is returned once.
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import type { Db } from '../../store/connect.js';
import { findMonitorByKey, setMonitorPushToken } from '../../store/monitors.js';

export async function issuePushToken(db: Db, organizationId: string, monitorKey: string, now: number): Promise<string> {
  const monitor = await findMonitorByKey(db, organizationId, monitorKey);
  if (!monitor) throw new NotFoundError('monitor', monitorKey);
  if (monitor.runOn !== 'push')
    throw new ValidationError([{ path: 'key', message: `monitor ${monitorKey} runs on ${monitor.runOn}, not push` }], 'Only push monitors have push tokens.');
  const token = generateSecret('pushToken');
  await setMonitorPushToken(db, monitor.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, now);
  return token;
}
