// Issues a new token for a relay (by id from the API, by key from the CLI); the old one stops working at once.
import type { z } from 'zod';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { parseInput, type ServiceContext, withTransaction, writerOf } from '../context.js';
import { requireRelay } from './read.js';
import { relayRefSchema } from './schema.js';
import { monitorsWithheldFrom, type WithheldMonitor } from './secrets.js';
import { type RelayView, relayView } from './view.js';

/**
 * Who asks for the token, from the context's writer. The API (a write key) sees the token but was never shown the
 * secrets (the API redacts them), so the relay config withholds every secret set before now until it is written in full
 * again. The operator (the CLI on the database itself, or warden.yaml: writer `config`) could read them anyway; its
 * token gets every secret and ends an earlier withholding.
 */
export interface RotatedToken {
  relay: RelayView;
  token: string;
  /** Monitors on this relay whose secrets must be sent again before the relay gets them. */
  secretsWithheld: WithheldMonitor[];
}

/** Allowed on config-managed relays too: the file holds no token unless it fixes one. */
export async function rotateRelayToken(
  ctx: ServiceContext,
  input: z.input<typeof relayRefSchema>,
): Promise<RotatedToken> {
  const ref = parseInput(relayRefSchema, input);
  const byOperator = writerOf(ctx) === 'config';
  const token = generateSecret('relayToken');
  return withTransaction(ctx, async (tx) => {
    const relay = await requireRelay(tx, ref);
    const now = tx.clock.now();
    await tx.store.relays.setToken(relay.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, now);
    await tx.store.relays.withholdSecrets(relay.id, byOperator ? null : now);
    const rotated = (await tx.store.relays.findById(relay.id)) ?? relay;
    return { relay: relayView(rotated), token, secretsWithheld: await monitorsWithheldFrom(tx, rotated) };
  });
}
