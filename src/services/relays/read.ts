// Reads the organization's relays: all of them, or one by id or key (another organization's is "not found").
import type { z } from 'zod';
import { NotFoundError } from '../../domain/errors.js';
import type { Relay } from '../../domain/organization.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { relayIdSchema, type relayRefSchema } from './schema.js';
import { type RelayView, relayView } from './view.js';

export async function listRelays(ctx: ServiceContext): Promise<RelayView[]> {
  return (await ctx.store.relays.list(organizationOf(ctx))).map(relayView);
}

export async function getRelay(ctx: ServiceContext, input: z.input<typeof relayIdSchema>): Promise<RelayView> {
  return relayView(await requireRelay(ctx, parseInput(relayIdSchema, input)));
}

/** The organization's relay by key, or by id — which may also be its key (an id wins); another organization's is "not found". */
export async function requireRelay(ctx: ServiceContext, ref: z.output<typeof relayRefSchema>): Promise<Relay> {
  const organizationId = organizationOf(ctx);
  const ours = (r: Relay | undefined | null) => (r && r.organizationId === organizationId ? r : undefined);
  const relay =
    'id' in ref
      ? (ours(await ctx.store.relays.findById(ref.id)) ??
        ours(await ctx.store.relays.findByKey(organizationId, ref.id)))
      : ours(await ctx.store.relays.findByKey(organizationId, ref.key));
  if (!relay) throw new NotFoundError('relay', 'id' in ref ? ref.id : ref.key);
  return relay;
}
