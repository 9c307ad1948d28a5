// Reads the organization's relays: all of them, or one by id or key (another organization's is "not found").
import type { z } from 'zod';
import type { Relay } from '../../domain/organization.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { requireOwned } from '../owned-ref.js';
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
  return requireOwned(ctx, 'relay', ctx.store.relays, ref);
}
