// Creates, changes and deletes notification channels, and puts warden.yaml's: one path for the API and the file, with the
// same caps, checks and events (`notifications.changed`, so ingest's channel cache reloads after the commit).
import type { z } from 'zod';
import { ConflictError, type FieldIssue, ValidationError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { LIMITS } from '../../domain/limits.js';
import type { NotificationChannel, NotificationChannelSpec, NotificationRules } from '../../domain/notification.js';
import { assertWritable } from '../../domain/ownership.js';
import { usesSystemSmtp } from '../../notify/channels/email.js';
import { type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { SYSTEM_SMTP_REFUSED } from '../../notify/mail/system-mail.js';
import {
  organizationOf,
  parseInput,
  type ServiceContext,
  uniquely,
  withTransaction,
  writerFor,
  writerOf,
  writeVerb,
} from '../context.js';
import { patchedConfig, retargetIssues } from '../monitors/retarget.js';
import { callerRole } from '../organizations/current.js';
import { type PutOutcome, putByKey } from '../put.js';
import { requireChannel } from './read.js';
import {
  type ChannelEntry,
  type ChannelPatch,
  channelCreateSchema,
  channelEntrySchema,
  channelKeySchema,
  channelUpdateSchema,
} from './schema.js';
import { type ChannelView, type CreatedChannel, channelView } from './view.js';

/**
 * A channel through the API (and so the dashboard): its secrets are shown redacted from now on. A secret Warden
 * generates (a webhook's signing secret) that the body left out is made here and answered this once, as `secret`.
 */
export async function createChannel(
  ctx: ServiceContext,
  input: z.input<typeof channelCreateSchema>,
): Promise<CreatedChannel> {
  const { spec, secret } = withGeneratedSecret(specOf(parseInput(channelCreateSchema, input)));
  return withTransaction(ctx, async (tx) => {
    const view = channelView(await insertChannel(tx, spec), callerRole(tx));
    return secret === undefined ? view : { ...view, secret };
  });
}

/** The spec with its type's generated secret filled in when it was left out, and that secret. */
function withGeneratedSecret(spec: NotificationChannelSpec): { spec: NotificationChannelSpec; secret?: string } {
  const generated = channelDefinition(spec.type as ChannelType).generatedSecret;
  if (!generated || spec.config[generated.field] !== undefined) return { spec };
  const secret = generated.generate();
  return { spec: { ...spec, config: { ...spec.config, [generated.field]: secret } }, secret };
}

/** warden.yaml's channel, by key: created, or made to match the file (and taken over when the API made it). */
export async function putChannel(
  ctx: ServiceContext,
  input: z.input<typeof channelEntrySchema>,
): Promise<{ channel: NotificationChannel; outcome: PutOutcome }> {
  const spec = specOf(parseInput(channelEntrySchema, input));
  return withTransaction(ctx, async (tx) => {
    const { value: channel, outcome } = await putByKey(tx, {
      label: `notification channel "${spec.key}"`,
      current: await tx.store.channels.findByKey(organizationOf(tx), spec.key),
      create: () => insertChannel(tx, spec),
      spec: () => spec,
      changed: channelSpecChanged,
      async update(current, spec, writer) {
        if (JSON.stringify(current.config) !== JSON.stringify(spec.config)) await assertSystemSmtpAllowed(tx, spec);
        await tx.store.channels.update(current.id, spec, writer, tx.clock.now());
        announce(tx);
        return (await tx.store.channels.findById(current.id)) ?? current;
      },
    });
    return { channel, outcome };
  });
}

/**
 * Changes a channel through the API (a merge of the fields given; config-managed channels answer 409). A secret sent
 * back as "[redacted]" (or left out) is kept only while no target field (the URL, the chat) changes.
 */
export const updateChannel = writeVerb(channelUpdateSchema, async (tx, { key, ...patch }): Promise<ChannelView> => {
  const current = await requireChannel(tx, key);
  const writer = writerFor(tx, current, `notification channel "${current.key}"`);
  const spec = patched(current, patch);
  if (channelSpecChanged(current, spec)) {
    // A channel refused already may still be renamed, disabled or deleted; a new config must not use the system server.
    if (JSON.stringify(current.config) !== JSON.stringify(spec.config)) await assertSystemSmtpAllowed(tx, spec);
    await tx.store.channels.update(current.id, spec, writer, tx.clock.now());
    announce(tx);
  }
  return channelView((await tx.store.channels.findById(current.id)) ?? current, callerRole(tx));
});

/**
 * A new generated secret (a webhook's signing secret) for an API-made channel, answered this once as `secret`; the old
 * one stops signing at once. A type without one answers 409, as does a channel warden.yaml manages (the file sets it).
 */
export async function rotateChannelSecret(
  ctx: ServiceContext,
  input: z.input<typeof channelKeySchema>,
): Promise<CreatedChannel & { secret: string }> {
  const { key } = parseInput(channelKeySchema, input);
  return withTransaction(ctx, async (tx) => {
    const current = await requireChannel(tx, key);
    const writer = writerFor(tx, current, `notification channel "${current.key}"`);
    const generated = channelDefinition(current.type as ChannelType).generatedSecret;
    if (!generated)
      throw new ConflictError(`a ${current.type} channel has no secret Warden generates: change it with PATCH`);
    const secret = generated.generate();
    const spec = { ...current, config: { ...current.config, [generated.field]: secret } };
    await tx.store.channels.update(current.id, spec, writer, tx.clock.now());
    announce(tx);
    return { ...channelView((await tx.store.channels.findById(current.id)) ?? current, callerRole(tx)), secret };
  });
}

/** Deletes a channel with its deliveries (pending ones are not sent). */
export const deleteChannel = writeVerb(channelKeySchema, async (tx, { key }): Promise<void> => {
  const channel = await requireChannel(tx, key);
  assertWritable(channel, writerOf(tx), `notification channel "${channel.key}"`);
  await tx.store.channels.delete(channel.id);
  announce(tx);
});

/**
 * Under WARDEN_SMTP_TENANTS=deny a channel made through the API may not use the system SMTP server: creating one, or
 * changing a config to one, is a 400 naming `config.host`, the field that gives it a server of its own. warden.yaml's
 * channels (the operator's) always may.
 */
async function assertSystemSmtpAllowed(ctx: ServiceContext, spec: NotificationChannelSpec): Promise<void> {
  if (!ctx.systemMail || !usesSystemSmtp(spec.type, spec.config)) return;
  if ((await ctx.systemMail.policyOf({ managedBy: writerOf(ctx) }, ctx.store)) === 'refused')
    throw new ValidationError([{ path: 'config.host', message: SYSTEM_SMTP_REFUSED }]);
}

function announce(ctx: ServiceContext): void {
  ctx.bus.publish({ type: 'notifications.changed', at: ctx.clock.now(), organizationId: organizationOf(ctx) });
}

async function insertChannel(ctx: ServiceContext, spec: NotificationChannelSpec): Promise<NotificationChannel> {
  await assertSystemSmtpAllowed(ctx, spec);
  const organizationId = organizationOf(ctx);
  const taken = `a notification channel with key "${spec.key}" already exists`;
  const channel = await uniquely(
    ctx,
    async () => {
      const existing = await ctx.store.channels.list(organizationId);
      if (existing.length >= LIMITS.notificationChannelsPerOrganization)
        throw new ConflictError(
          `an organization has at most ${LIMITS.notificationChannelsPerOrganization} notification channels`,
        );
      if (existing.some((c) => c.key === spec.key)) throw new ConflictError(taken);
      const id = newId('nch');
      await ctx.store.channels.insert({ ...spec, id, organizationId, managedBy: writerOf(ctx) }, ctx.clock.now());
      return (await ctx.store.channels.findById(id)) as NotificationChannel;
    },
    taken,
  );
  announce(ctx);
  return channel;
}

function specOf(entry: ChannelEntry): NotificationChannelSpec {
  return {
    key: entry.key,
    name: entry.name,
    type: entry.type,
    config: entry.config as Record<string, unknown>,
    rules: rulesOf(entry.rules),
    enabled: entry.enabled,
  };
}

/** Rules as stored: absent fields left out (so a file and the API compare equal). */
function rulesOf(rules: NotificationRules): NotificationRules {
  return Object.fromEntries(Object.entries(rules).filter(([, value]) => value !== undefined)) as NotificationRules;
}

/** The channel after the patch, checked by the same rules as on create. */
function patched(current: NotificationChannel, patch: ChannelPatch): NotificationChannelSpec {
  const definition = channelDefinition(current.type as ChannelType);
  const issues: FieldIssue[] = [];
  const config = patchedConfig(definition.config, current.config, patch.config, definition.secrets, issues);
  issues.push(
    ...retargetIssues(
      definition,
      { config: current.config, relayId: null },
      { config, relayId: null },
      patch.config,
      'channel',
    ),
  );
  if (issues.length > 0) throw new ValidationError(issues);
  return {
    key: current.key,
    name: patch.name ?? current.name,
    type: current.type,
    config,
    rules: patch.rules === undefined ? current.rules : rulesOf(patch.rules),
    enabled: patch.enabled ?? current.enabled,
  };
}

export function channelSpecChanged(current: NotificationChannelSpec, next: NotificationChannelSpec): boolean {
  return (
    current.key !== next.key ||
    current.name !== next.name ||
    current.type !== next.type ||
    current.enabled !== next.enabled ||
    JSON.stringify(current.config) !== JSON.stringify(next.config) ||
    JSON.stringify(current.rules) !== JSON.stringify(next.rules)
  );
}
