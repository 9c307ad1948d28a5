// Finds the relay a bearer token belongs to and records that it was heard from (telling its return when it was offline).
import type { Relay } from '../../domain/organization.js';
import { hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import { relayCameBack } from '../../notify/outbox/relays.js';
import { type ServiceContext, withTransaction } from '../context.js';

/** last_seen_at is written at most this often per relay: enough for the watchdog's "three intervals" rule, cheap under load. */
export const RELAY_SEEN_RESOLUTION_MS = 1000;

/** The relay holding this token, or null for a missing, malformed, unknown or revoked one. */
export async function authenticateRelay(
  ctx: ServiceContext,
  { token }: { token: string | undefined },
): Promise<Relay | null> {
  if (token === undefined || !isSecretOfKind('relayToken', token)) return null;
  const relay = await ctx.store.relays.findByTokenHash(hashSecret(token));
  if (!relay || !secretMatchesHash(token, relay.tokenHash)) return null;
  const now = ctx.clock.now();
  const { tokenHash: _hash, offlineSince, ...rest } = relay;
  if (offlineSince !== null) {
    // Rare (the relay was marked offline): the only request that costs a transaction, with the relay.back notice in it.
    await withTransaction(ctx, (tx) => relayCameBack(tx.store, tx.notify, rest, offlineSince, rest.lastSeenAt, now));
    rest.lastSeenAt = now;
  } else if (rest.lastSeenAt === null || now - rest.lastSeenAt >= RELAY_SEEN_RESOLUTION_MS) {
    await ctx.store.relays.touch(rest.id, now);
    rest.lastSeenAt = now;
  }
  return rest;
}
