// Issues a new token for a relay (by id from the API, by key from the CLI); the old one stops working at once.
import type { z } from 'zod';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import { parseInput, type ServiceContext } from '../context.js';
import { requireRelay } from './read.js';
import { relayRefSchema } from './schema.js';
import { type RelayView, relayView } from './view.js';

/** Allowed on config-managed relays too: the file holds no token unless it fixes one. */
export async function rotateRelayToken(ctx: ServiceContext, input: z.input<typeof relayRefSchema>): Promise<{ relay: RelayView; token: string }> {
  const relay = await requireRelay(ctx, parseInput(relayRefSchema, input));
  const token = generateSecret('relayToken');
  await ctx.store.relays.setToken(relay.id, { hash: hashSecret(token), prefix: displayPrefix(token) }, ctx.clock.now());
  return { relay: relayView((await ctx.store.relays.findById(relay.id)) ?? relay), token };
}
