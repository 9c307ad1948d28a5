// Issues a new relay token, revoking the old one; the secret is returned once.
import { NotFoundError } from '../../domain/errors.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import type { Db } from '../../store/connect.js';
import { findRelayByKey, setRelayToken } from '../../store/relays.js';

export async function issueRelayToken(db: Db, organizationId: string, relayKey: string, now: number): Promise<string> {
  const relay = await findRelayByKey(db, organizationId, relayKey);
  if (!relay) throw new NotFoundError('relay', relayKey);
  const token = generateSecret('relayToken');
  await setRelayToken(db, relay.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, now);
  return token;
}
