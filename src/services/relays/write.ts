// Creates, renames and deletes relays: the API (which issues a token at once) and warden.yaml (by key, token optional) share one path.
import type { z } from 'zod';
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import type { Relay } from '../../domain/organization.js';
import { assertWritable } from '../../domain/ownership.js';
import { displayPrefix, generateSecret, hashSecret } from '../../domain/tokens.js';
import {
  organizationOf,
  parseInput,
  type ServiceContext,
  uniquely,
  withTransaction,
  writerOf,
  writeVerb,
} from '../context.js';
import { checkRelayParent } from '../monitors/dependencies.js';
import { type PutOutcome, putByKey } from '../put.js';
import { requireRelay } from './read.js';
import { relayCreateSchema, relayEntrySchema, relayIdSchema, relayUpdateSchema } from './schema.js';
import { type RelayView, relayView } from './view.js';

/** Registers a relay and issues its token; the token is returned once and only its hash is stored. */
export async function createRelay(
  ctx: ServiceContext,
  input: z.input<typeof relayCreateSchema>,
): Promise<{ relay: RelayView; token: string }> {
  const entry = parseInput(relayCreateSchema, input);
  const token = generateSecret('relayToken');
  const relay = await withTransaction(ctx, async (tx) => {
    await checkRelayParent(tx, { id: null, dependsOn: entry.dependsOn ?? null });
    const created = await insertRelay(tx, entry);
    await tx.store.relays.setToken(
      created.id,
      { hash: hashSecret(token), prefix: displayPrefix(token) },
      tx.clock.now(),
    );
    return (await tx.store.relays.findById(created.id)) ?? created;
  });
  // No monitor runs on a new relay yet, so nothing needs reloading.
  return { relay: relayView(relay), token };
}

/** warden.yaml's relay: created, or renamed and taken over, by key; a token the file fixes is set (if no other relay holds it). */
export const putRelay = writeVerb(
  relayEntrySchema,
  async (tx, entry): Promise<{ relay: Relay; outcome: PutOutcome }> => {
    const now = tx.clock.now();
    const { value: relay, outcome } = await putByKey(tx, {
      label: `relay "${entry.key}"`,
      current: await tx.store.relays.findByKey(organizationOf(tx), entry.key),
      create: () => insertRelay(tx, entry),
      // warden.yaml's parent is checked with the file (config/dependency-issues.ts).
      spec: () => ({ name: entry.name, dependsOn: entry.dependsOn ?? null }),
      changed: (current, spec) => current.name !== spec.name || current.dependsOn !== spec.dependsOn,
      async update(current, spec, writer) {
        await tx.store.relays.update(current.id, { ...spec, managedBy: writer }, now);
        if (current.dependsOn !== spec.dependsOn)
          tx.bus.publish({ type: 'monitors.changed', at: now, organizationId: current.organizationId });
        return (await tx.store.relays.findById(current.id)) ?? current;
      },
    });
    if (entry.token === undefined) return { relay, outcome };
    const hash = hashSecret(entry.token);
    const holder = await tx.store.relays.findByTokenHash(hash);
    if (holder && holder.id !== relay.id)
      throw new ConflictError(`the token of relay "${entry.key}" is already used by another relay`);
    if (holder) return { relay, outcome };
    await tx.store.relays.setToken(relay.id, { hash, prefix: displayPrefix(entry.token) }, now);
    // The operator's token: it gets every secret, even those withheld after a rotation through the API.
    await tx.store.relays.withholdSecrets(relay.id, null);
    return { relay: (await tx.store.relays.findById(relay.id)) ?? relay, outcome };
  },
);

/** Renames a relay or sets its parent (the key stays: monitors name their relay by it). */
export async function updateRelay(ctx: ServiceContext, input: z.input<typeof relayUpdateSchema>): Promise<RelayView> {
  const { id, ...changes } = parseInput(relayUpdateSchema, input);
  return withTransaction(ctx, async (tx) => {
    const current = await requireRelay(tx, { id });
    assertWritable(current, writerOf(tx), `relay "${current.key}"`);
    if (changes.dependsOn !== undefined && changes.dependsOn !== current.dependsOn)
      await checkRelayParent(tx, { id: current.id, dependsOn: changes.dependsOn });
    const name = changes.name !== undefined && changes.name !== current.name ? changes.name : undefined;
    const dependsOn =
      changes.dependsOn !== undefined && changes.dependsOn !== current.dependsOn ? changes.dependsOn : undefined;
    if (name !== undefined || dependsOn !== undefined)
      await tx.store.relays.update(
        current.id,
        { ...(name === undefined ? {} : { name }), ...(dependsOn === undefined ? {} : { dependsOn }) },
        tx.clock.now(),
      );
    return relayView((await tx.store.relays.findById(current.id)) ?? current);
  });
}

/** A relay that still runs monitors is refused (409), so none is left without a place to run. */
export const deleteRelay = writeVerb(relayIdSchema, async (tx, ref): Promise<void> => {
  const relay = await requireRelay(tx, ref);
  assertWritable(relay, writerOf(tx), `relay "${relay.key}"`);
  const monitors = await tx.store.monitors.keysOnRelay(relay.id);
  if (monitors.length > 0)
    throw new ConflictError(
      `relay "${relay.key}" runs monitors ${monitors.map((k) => `"${k}"`).join(', ')}; move or delete them first`,
    );
  await tx.store.relays.delete(relay.id);
  tx.bus.publish({ type: 'monitors.changed', at: tx.clock.now(), organizationId: relay.organizationId });
});

async function insertRelay(
  ctx: ServiceContext,
  entry: { key: string; name: string; dependsOn?: string | undefined },
): Promise<Relay> {
  const organizationId = organizationOf(ctx);
  const taken = `a relay with key "${entry.key}" already exists`;
  return uniquely(
    ctx,
    async () => {
      if ((await ctx.store.relays.count(organizationId)) >= LIMITS.relaysPerOrganization)
        throw new ConflictError(`an organization has at most ${LIMITS.relaysPerOrganization} relays`);
      if (await ctx.store.relays.findByKey(organizationId, entry.key)) throw new ConflictError(taken);
      const id = newId('rly');
      await ctx.store.relays.insert(
        {
          id,
          organizationId,
          key: entry.key,
          name: entry.name,
          dependsOn: entry.dependsOn ?? null,
          managedBy: writerOf(ctx),
        },
        ctx.clock.now(),
      );
      return (await ctx.store.relays.findById(id)) as Relay;
    },
    taken,
  );
}
