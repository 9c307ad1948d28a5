// Finds the relay a bearer token belongs to and records that it was heard from.
import { hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import type { Db } from '../../store/connect.js';
import { findRelayByTokenHash, type Relay, touchRelay } from '../../store/relays.js';

/** last_seen_at is written at most this often per relay: enough for the watchdog's "three intervals" rule, cheap under load. */
export const RELAY_SEEN_RESOLUTION_MS = 1000;

/** The relay holding this token, or null for a missing, malformed, unknown or revoked one. */
export async function authenticateRelay(db: Db, token: string | undefined, now: number): Promise<Relay | null> {
  if (token === undefined || !isSecretOfKind('relayToken', token)) return null;
  const relay = await findRelayByTokenHash(db, hashSecret(token));
  if (!relay || !secretMatchesHash(token, relay.tokenHash)) return null;
  if (relay.lastSeenAt === null || now - relay.lastSeenAt >= RELAY_SEEN_RESOLUTION_MS) {
    await touchRelay(db, relay.id, now);
    relay.lastSeenAt = now;
  }
  const { tokenHash: _hash, ...rest } = relay;
  return rest;
}
