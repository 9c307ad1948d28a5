// `POST …/test` and `warden notifications test KEY`: a `test` event sent at once through the channel's definition (one
// attempt, not through the outbox, so the caller sees the outcome), recorded in the channel's delivery log like the
// outbox's deliveries: sent, or dead with the error and answer (a test is never retried). It connects under the
// organization's target policy, as the dispatcher's sends do. An email channel on the system SMTP server is screened
// first, as the dispatcher screens alerts: past a limit 429; to the confirmed recipients only (the others get a
// confirmation link instead), skipped when none is.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { RateLimitedError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Delivery } from '../../domain/notification.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { targetGuard } from '../../net/target-guard.js';
import type { NotificationEvent, SendOutcome } from '../../notify/channels/channel.js';
import { type ChannelType, channelDefinition } from '../../notify/channels/registry.js';
import { DISPATCH_DEFAULTS } from '../../notify/dispatch/dispatcher.js';
import { targetPolicyOf } from '../../notify/dispatch/subscriber-targets.js';
import { organizationOf, parseInput, type ServiceContext } from '../context.js';
import { requireChannel } from './read.js';
import { channelKeySchema } from './schema.js';
import { type DeliveryView, deliveryView } from './view.js';

export interface TestOutcome {
  /** What the attempt came to: sent, failed, or skipped (no recipient confirmed yet). */
  outcome: 'sent' | 'failed' | 'skipped';
  delivery: DeliveryView;
}

/** What sending a test needs besides the store: WARDEN_PROBE_PRIVATE_TARGETS (`auto` when absent). */
export interface ChannelTestContext extends ServiceContext {
  privateTargets?: ProbeTargetPolicy | 'auto' | undefined;
}

/** Sends a test to the channel (enabled or not) now and records the attempt as a delivery. */
export async function testChannel(
  ctx: ChannelTestContext,
  input: z.input<typeof channelKeySchema>,
): Promise<TestOutcome> {
  const { key } = parseInput(channelKeySchema, input);
  const organizationId = organizationOf(ctx);
  const channel = await requireChannel(ctx, key);
  const organization = (await ctx.store.organizations.list()).find((o) => o.id === organizationId);
  const now = ctx.clock.now();
  const event: NotificationEvent = {
    id: `evt_test_${randomBytes(12).toString('base64url')}`,
    kind: 'test',
    at: now,
    severity: 'info',
    title: `Test notification for "${channel.name}"`,
    reason: 'Sent from Warden to check that this channel reaches you. Nothing is down.',
    organization: { key: organization?.key ?? '', name: organization?.name ?? '' },
    pages: [],
  };
  const definition = channelDefinition(channel.type as ChannelType);
  const guard = targetGuard(await targetPolicyOf(ctx.store, organizationId, ctx.privateTargets));
  const screened = (await ctx.systemMail?.screen(channel, 'test')) ?? null;
  if (screened?.kind === 'hold')
    throw new RateLimitedError(`Not sent: ${screened.reason}.`, Math.max(1, Math.ceil(screened.retryAfterMs / 1000)));
  const result: SendOutcome | { kind: 'skipped'; error: string } =
    screened?.kind === 'refuse'
      ? { kind: 'dead', status: null, error: screened.reason }
      : screened?.kind === 'skip'
        ? { kind: 'skipped', error: screened.reason }
        : await sendOnce(() => {
            const config = definition.config.parse(channel.config);
            const recipients = screened?.recipients;
            return definition.send(event, config, {
              signal: AbortSignal.timeout(DISPATCH_DEFAULTS.attemptTimeoutMs),
              now,
              attempt: 0,
              guard,
              smtp: ctx.smtp,
              recipients,
            });
          });
  const note = screened?.kind === 'send' ? screened.note : null;
  const answer = result.kind === 'skipped' ? null : [result.answer, note].filter((part) => part).join(' · ') || null;
  const delivery: Delivery = {
    id: newId('dlv'),
    eventId: event.id,
    subscriberId: null,
    channelId: channel.id,
    organizationId,
    monitorId: null,
    kind: 'test',
    event: JSON.stringify(event),
    nextAttemptAt: now,
    status: result.kind === 'sent' ? 'sent' : result.kind === 'skipped' ? 'skipped' : 'dead',
    attempts: result.kind === 'skipped' ? 0 : 1,
    claimedUntil: null,
    lastError: result.kind === 'sent' ? null : result.error,
    lastStatus: result.kind === 'skipped' ? null : result.status,
    lastAnswer: answer,
    createdAt: now,
    sentAt: result.kind === 'sent' ? ctx.clock.now() : null,
  };
  await ctx.store.deliveries.record(delivery);
  ctx.logger.info(
    { channel: channel.key, outcome: result.kind, status: delivery.lastStatus, ...(note ? { note } : {}) },
    'notification test sent',
  );
  return {
    outcome: result.kind === 'sent' ? 'sent' : result.kind === 'skipped' ? 'skipped' : 'failed',
    delivery: deliveryView(delivery),
  };
}

/** A channel that throws (a bad stored config, a bug) is a failed attempt, not a 500. */
async function sendOnce(send: () => Promise<SendOutcome>): Promise<SendOutcome> {
  try {
    return await send();
  } catch (error) {
    return { kind: 'dead', status: null, error: error instanceof Error ? error.message : String(error) };
  }
}
