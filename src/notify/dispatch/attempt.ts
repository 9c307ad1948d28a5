// One attempt at a claimed delivery, start to record: find its target, judge the send-time rules (the gate) and the
// system mail's screen, send (send.ts), let the policy decide (policy.ts), and record the decision — sent through the
// acknowledgement batch (acks.ts), retry or dead at once. A 429 or a mail hold pauses the target in the lane scheduler.
import type { Delivery } from '../../domain/notification.js';
import type { NotificationEvent } from '../channels/channel.js';
import type { Screening } from '../mail/system-mail.js';
import type { Acknowledgements } from './acks.js';
import { type LaneScheduler, targetKeyOf } from './lanes.js';
import type { DISPATCH_DEFAULTS, DispatcherDeps } from './options.js';
import { decide } from './policy.js';
import { createGuards, sendWithTimeout, type Target, targetOf } from './send.js';

export interface AttemptParts {
  lanes: LaneScheduler;
  acks: Acknowledgements;
  /** Aborted when the stop grace is over: an attempt given up then records nothing. */
  stopping: AbortSignal;
  /** A channel's retries were made due at once (its receiver is back): claim now. */
  retriesDue: () => void;
}

export function createAttempt(
  deps: DispatcherDeps,
  o: typeof DISPATCH_DEFAULTS,
  parts: AttemptParts,
): (delivery: Delivery) => Promise<void> {
  const { store, clock, logger, metrics } = deps;
  const random = deps.random ?? Math.random;
  const guardOf = createGuards(store, deps.privateTargets ?? 'auto', o.policyMaxAgeMs);
  const limits = { clock, smtp: deps.smtp, attemptTimeoutMs: o.attemptTimeoutMs, stopping: parts.stopping };

  return async function attempt(delivery: Delivery): Promise<void> {
    const target = await targetOf(delivery, deps);
    if (!target) return;
    if ('dead' in target) return store.deliveries.markDead(delivery.id, target.dead, null, null);
    parts.lanes.limit(targetKeyOf(delivery), target.definition.maxInFlight ?? o.channelInFlight);
    const event = JSON.parse(delivery.event) as NotificationEvent;
    // The rules that can only be judged at send time (the state still holds): a delivery no longer wanted is skipped, kept in the log.
    const skip = deps.gate && delivery.channelId !== null ? await deps.gate(delivery, event, target.rules) : null;
    const { definition, config } = target;
    if (skip !== null) {
      metrics?.delivery(definition.type, 'skipped');
      return store.deliveries.markSkipped(delivery.id, skip);
    }
    // An email channel on the system server: refused, held by a limit, skipped (nobody confirmed), or sent to those who did.
    const screened = deps.systemMail && target.channel ? await deps.systemMail.screen(target.channel, 'alert') : null;
    if (screened && screened.kind !== 'send') return settleScreened(deps, o, parts.lanes, delivery, target, screened);
    const send = {
      definition,
      event,
      config,
      attempt: delivery.attempts - 1,
      guard: await guardOf(delivery.organizationId),
      recipients: screened?.recipients,
    };
    const outcome = await sendWithTimeout(limits, send);
    if (parts.stopping.aborted) return; // given up at stop, not acknowledged: stop releases the claim
    const now = clock.now();
    const note = screened?.note ?? null;
    if (note !== null)
      logger.info(
        { delivery: delivery.id, channel: target.label, outcome: outcome.kind, note },
        'notification sent to the confirmed recipients only',
      );
    const answer =
      note === null ? (outcome.answer ?? null) : `${outcome.answer ?? ''}${outcome.answer ? ' · ' : ''}${note}`;
    const decision = decide(
      {
        outcome,
        attempts: delivery.attempts,
        createdAt: delivery.createdAt,
        now,
        random: outcome.kind === 'retry' && outcome.afterMs === undefined ? random() : 0,
      },
      o,
    );
    metrics?.delivery(definition.type, decision.kind);
    if (decision.kind === 'sent') return acknowledged(delivery, now, outcome.status, answer);
    if (decision.pauseUntil !== null) parts.lanes.pause(targetKeyOf(delivery), decision.pauseUntil);
    if (decision.kind === 'dead') return store.deliveries.markDead(delivery.id, decision.error, outcome.status, answer);
    logger.warn(
      { delivery: delivery.id, channel: target.label, error: decision.error, retryInMs: decision.at - now },
      'notification delivery will be retried',
    );
    return store.deliveries.markRetry(delivery.id, decision.at, decision.error, outcome.status, answer);
  };

  /** Sent: acknowledged with its batch. A send that went through after failing says the receiver is back: the channel's other retries are due at once. */
  async function acknowledged(
    delivery: Delivery,
    sentAt: number,
    status: number | null,
    answer: string | null,
  ): Promise<void> {
    await parts.acks.acknowledge({ id: delivery.id, sentAt, status, answer });
    if (
      delivery.attempts > 1 &&
      delivery.channelId !== null &&
      (await store.deliveries.retryChannelNow(delivery.channelId, sentAt)) > 0
    )
      parts.retriesDue();
  }
}

/** A screened delivery not sent: dead when refused, skipped when nobody confirmed, held (its target paused) by a limit. */
async function settleScreened(
  { store, clock, logger, metrics }: DispatcherDeps,
  o: typeof DISPATCH_DEFAULTS,
  lanes: LaneScheduler,
  delivery: Delivery,
  target: Target,
  screened: Exclude<Screening, { kind: 'send' }>,
): Promise<void> {
  const type = target.definition.type;
  if (screened.kind === 'refuse') {
    metrics?.delivery(type, 'dead');
    return store.deliveries.markDead(delivery.id, screened.reason, null, null);
  }
  if (screened.kind === 'skip') {
    metrics?.delivery(type, 'skipped');
    logger.info(
      { delivery: delivery.id, channel: target.label, reason: screened.reason },
      'notification skipped: no recipient confirmed',
    );
    return store.deliveries.markSkipped(delivery.id, screened.reason);
  }
  // Like a 429: the target's other deliveries wait too, handed back until the window ends.
  const outcome = { kind: 'retry' as const, status: null, error: screened.reason, afterMs: screened.retryAfterMs };
  const decision = decide(
    { outcome, attempts: delivery.attempts, createdAt: delivery.createdAt, now: clock.now(), random: 0, hold: true },
    o,
  );
  metrics?.delivery(type, decision.kind);
  if (decision.kind !== 'retry')
    return store.deliveries.markDead(
      delivery.id,
      decision.kind === 'dead' ? decision.error : screened.reason,
      null,
      null,
    );
  if (decision.pauseUntil !== null) lanes.pause(targetKeyOf(delivery), decision.pauseUntil);
  logger.warn(
    { delivery: delivery.id, channel: target.label, reason: screened.reason, retryInMs: screened.retryAfterMs },
    'notification held by the system SMTP limit',
  );
  return store.deliveries.markRetry(delivery.id, decision.at, screened.reason, null, null);
}
