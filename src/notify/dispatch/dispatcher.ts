// The outbox's send side: claims due deliveries (every ~250 ms, at once when a commit enqueued), sends each through its
// channel's definition with a time limit, and records the outcome: sent, retry with backoff (or the receiver's
// Retry-After), or dead. Lanes per channel and monitor (each monitor's events one at a time, in order), up to the channel's
// maxInFlight at once and a cap across channels; a 429 pauses the whole channel until its Retry-After. A graceful stop
// lets the sends in flight finish for a short grace, then hands back the claims of those that did not (sent again at once
// after a restart); a crash mid-send (kill -9) leaves the claim to lapse, and the delivery is sent again with the same event id.
import type { Clock } from '../../domain/clock.js';
import type { Delivery, NotificationChannel, NotificationRules } from '../../domain/notification.js';
import { probeTargetPolicies } from '../../domain/organization.js';
import type { ProbeTargetPolicy } from '../../domain/security.js';
import { type Logger, logFailure } from '../../logger.js';
import type { WardenMetrics } from '../../metrics/recorder.js';
import { type TargetGuard, targetGuard } from '../../net/target-guard.js';
import type { Store } from '../../store/index.js';
import type { ChannelDefinition, MailRecipient, NotificationEvent, SendOutcome } from '../channels/channel.js';
import type { SmtpSettings } from '../mail/smtp.js';
import type { Screening, SystemMail } from '../mail/system-mail.js';
import type { SubscriberTarget } from './subscriber-targets.js';

export const DISPATCH_DEFAULTS = {
  pollMs: 250,
  /** Sends in flight at most, across channels. */
  concurrency: 16,
  /** Sends in flight at most to one channel whose definition sets no `maxInFlight`. */
  channelInFlight: 4,
  /** Deliveries held here at most (in flight, or waiting for their lane or their channel's room); claims top it up. */
  maxHeld: 256,
  /** Deliveries held at most for one channel: past it, claims leave that channel out, so a slow one does not crowd out the rest. */
  maxHeldPerChannel: 64,
  attemptTimeoutMs: 10_000,
  /**
   * How long a claim holds, so no other process re-sends it meanwhile. A delivery whose claim would lapse before its
   * send could finish (a long local backlog) is handed back unsent instead, and claimed again.
   */
  leaseMs: 300_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
  /** After this long since it was enqueued, a delivery that still fails is dead. */
  giveUpMs: 24 * 3_600_000,
  /** On stop: how long the sends in flight may take to finish before their claims are handed back (well within the shutdown budget). */
  stopGraceMs: 2_000,
  /** How long the organizations' target policies are reused before they are read again (a changed policy applies within it). */
  policyMaxAgeMs: 1_000,
};

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  // biome-ignore lint/suspicious/noExplicitAny: each definition keeps its own config type; its schema parses the stored config.
  channels: Record<string, ChannelDefinition<any>>;
  options?: Partial<typeof DISPATCH_DEFAULTS>;
  /** In [0, 1): the jitter; Math.random unless a test fixes it. */
  random?: () => number;
  /**
   * Judged just before a send: a reason to skip the delivery (kept in the log as skipped), or null to send it. The
   * channel's rules come with it (a held alert whose state has moved on since is no longer news).
   */
  gate?: (delivery: Delivery, event: NotificationEvent, rules: NotificationRules) => Promise<string | null>;
  /** Where a page subscriber's delivery goes (notify/dispatch/subscriber-targets.ts); without it such deliveries are left alone. */
  subscribers?: (delivery: Delivery) => Promise<SubscriberTarget>;
  /** The system SMTP server: page subscribers' mail, and email channels without a host of their own. */
  smtp?: SmtpSettings | undefined;
  /**
   * WARDEN_PROBE_PRIVATE_TARGETS: with each organization's own setting, where its channels and its page subscribers'
   * webhooks may connect (the probes' policy, `auto` when absent). Every send gets its organization's guard.
   */
  privateTargets?: ProbeTargetPolicy | 'auto' | undefined;
  /**
   * Judges each send of an email channel on the system server (WARDEN_SMTP_TENANTS, the limits, who confirmed): without
   * it such channels mail every recipient, as a trusted one does.
   */
  systemMail?: SystemMail | undefined;
  /** Each attempt counted by channel type and outcome (warden_notification_deliveries_total); absent, nothing is. */
  metrics?: WardenMetrics | undefined;
}

interface Target {
  /** Names the target in logs (the channel's key), never a secret. */
  label: string;
  /** The channel, for a channel's delivery. */
  channel?: NotificationChannel;
  // biome-ignore lint/suspicious/noExplicitAny: the definition's own schema parsed `config`.
  definition: ChannelDefinition<any>;
  config: Record<string, unknown>;
  rules: NotificationRules;
}

export interface Dispatcher {
  /** Starts polling. */
  start(): void;
  /** Claims now (after a commit that enqueued) instead of at the next poll. */
  wake(): void;
  /** One round: claims what is due and there is room for, starts sending; resolves when those sends are recorded. */
  tick(): Promise<void>;
  /**
   * Stops claiming, lets the sends in flight finish (and be recorded) for up to `stopGraceMs`, then aborts the rest
   * without recording them and releases their claims, with those of the deliveries still queued here: they are due at
   * once for the next dispatcher, under the same event id.
   */
  stop(): Promise<void>;
}

/** Full jitter: a uniform delay up to base × 2^(attempt−1), capped. */
export function backoffMs(attempt: number, random: number, baseMs = DISPATCH_DEFAULTS.backoffBaseMs, maxMs = DISPATCH_DEFAULTS.backoffMaxMs): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

/** Where a delivery goes: a channel, or a page subscriber. Its sends share the target's maxInFlight and its 429 pauses. */
function targetKeyOf(delivery: Delivery): string {
  return delivery.channelId ?? `subscriber:${delivery.subscriberId}`;
}

/** Deliveries of one lane (a target and a monitor) are sent one at a time, in claim order: a monitor's events arrive in order. */
function laneOf(delivery: Delivery): string {
  return `${targetKeyOf(delivery)}|${delivery.monitorId ?? ''}`;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const o = { ...DISPATCH_DEFAULTS, ...deps.options };
  // A claim shorter than one attempt could never be sent: each would be handed back at once.
  if (o.leaseMs <= o.attemptTimeoutMs) throw new Error(`leaseMs (${o.leaseMs}) must exceed attemptTimeoutMs (${o.attemptTimeoutMs})`);
  const random = deps.random ?? Math.random;
  const { store, clock, logger } = deps;
  /** Claimed here and not yet recorded, by id, with their target: a lapsed claim re-taken by this process is not sent twice. */
  const held = new Map<string, string>();
  const heldPerTarget = new Map<string, number>();
  /** Per lane: the deliveries waiting behind the one in flight, in claim order. */
  const queues = new Map<string, Delivery[]>();
  /** Lanes with a send in flight. */
  const busy = new Set<string>();
  /** Per target: sends in flight; how many it may have (its definition's, learnt on its first attempt: one until then); until when a 429 paused it. */
  const inFlight = new Map<string, number>();
  const limits = new Map<string, number>();
  const pausedUntil = new Map<string, number>();
  /** Sends in flight. */
  const running = new Set<Promise<void>>();
  /** Deliveries of paused targets being handed back: tick and stop wait for them. */
  const deferring = new Set<Promise<unknown>>();
  /** Channels left out of the last claim (they had enough held), and whether it filled its room: more may be due. */
  let skipped = new Set<string>();
  let moreDue = false;
  /** Polling (start): a send that leaves room tops the claim up at once. */
  let polling = false;
  /** Sent acknowledgements waiting for their batch's commit, and the batch loop while it runs. */
  let acks: { id: string; sentAt: number; status: number | null; answer: string | null; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let acking: Promise<void> | null = null;
  /** Claims under way (from the poll loop or `tick`): stop waits for them, so what they take is released too. */
  const claims = new Set<Promise<unknown>>();
  /** Aborted when the stop grace is over: the sends still in flight are given up without being recorded. */
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;
  /** No more claims, and each channel's queue stops after its current send. */
  let stopped = false;
  let stopDone: Promise<void> | null = null;
  /** The organizations' target policies, as last read (performance.now() when), shared by the sends meanwhile. */
  let policies: { at: number; byOrganization: Promise<Map<string, ProbeTargetPolicy>> } | null = null;

  async function claim(): Promise<void> {
    // At most one channel's share per claim: one with a backlog fills up and is left out of the next claim, made at once.
    const room = Math.min(o.maxHeld - held.size, o.maxHeldPerChannel);
    if (room <= 0 || stopped) return;
    const full = [...heldPerTarget].filter(([target, count]) => count >= o.maxHeldPerChannel && !target.startsWith('subscriber:')).map(([target]) => target);
    const taking = store.deliveries.claimDue(clock.now(), room, o.leaseMs, full);
    claims.add(taking);
    const claimed = await taking.finally(() => claims.delete(taking));
    skipped = new Set(full);
    let added = 0;
    for (const delivery of claimed) {
      if (held.has(delivery.id)) continue;
      added += 1;
      const target = targetKeyOf(delivery);
      held.set(delivery.id, target);
      heldPerTarget.set(target, (heldPerTarget.get(target) ?? 0) + 1);
      const lane = laneOf(delivery);
      const queue = queues.get(lane) ?? [];
      queue.push(delivery);
      queues.set(lane, queue);
    }
    moreDue = added === room;
    startSends();
  }

  /** Starts what there is room for, oldest lane first: one send per lane, up to each target's limit and the cap across targets. */
  function startSends(): void {
    if (stopped) return;
    const now = clock.now();
    for (const [lane, queue] of queues) {
      if (running.size >= o.concurrency) return;
      const next = queue[0];
      if (!next) {
        queues.delete(lane);
        continue;
      }
      if (busy.has(lane)) continue;
      const target = targetKeyOf(next);
      const paused = pausedUntil.get(target);
      if (paused !== undefined && paused > now) {
        deferTarget(target, paused);
        continue;
      }
      if (paused !== undefined) pausedUntil.delete(target);
      if ((inFlight.get(target) ?? 0) >= (limits.get(target) ?? 1)) continue;
      queue.shift();
      if (queue.length === 0) queues.delete(lane);
      send(lane, target, next);
    }
  }

  function send(lane: string, target: string, delivery: Delivery): void {
    busy.add(lane);
    inFlight.set(target, (inFlight.get(target) ?? 0) + 1);
    const run = (async () => {
      try {
        // Its claim would lapse before the send could finish: another process may take it then, so hand it back now.
        if (delivery.claimedUntil !== null && clock.now() + o.attemptTimeoutMs >= delivery.claimedUntil)
          await store.deliveries.releaseClaims([delivery.id], clock.now());
        else await attempt(delivery);
      } catch (error) {
        logFailure(logger, error, 'recording a notification delivery failed', { delivery: delivery.id });
      } finally {
        // Given up at the end of the stop grace: still held, so stop releases its claim.
        if (!stopping.signal.aborted) unhold(delivery.id);
        busy.delete(lane);
        const count = (inFlight.get(target) ?? 1) - 1;
        if (count > 0) inFlight.set(target, count);
        else inFlight.delete(target);
      }
    })();
    running.add(run);
    run
      .finally(() => {
        running.delete(run);
        startSends();
        // Room again: top the claim up now rather than at the next poll, when more is due.
        const refill = (moreDue && held.size <= o.maxHeld / 2) || (skipped.has(target) && (heldPerTarget.get(target) ?? 0) <= o.maxHeldPerChannel / 2);
        if (polling && refill) wake();
      })
      .catch(() => {});
  }

  function unhold(id: string): void {
    const target = held.get(id);
    if (target === undefined) return;
    held.delete(id);
    const count = (heldPerTarget.get(target) ?? 1) - 1;
    if (count > 0) heldPerTarget.set(target, count);
    else heldPerTarget.delete(target);
  }

  /**
   * Records a send as sent, in one transaction with the others that finished meanwhile: one commit (one fsync on SQLite)
   * for a handful of acknowledgements instead of one each. Resolves once its batch is committed. A send that went
   * through after failing says the receiver is back: the channel's other retries are due at once, not after their backoff.
   */
  async function acknowledge(delivery: Delivery, sentAt: number, status: number | null, answer: string | null): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      acks.push({ id: delivery.id, sentAt, status, answer, resolve, reject });
      acking ??= recordAcks();
    });
    if (delivery.attempts > 1 && delivery.channelId !== null && (await store.deliveries.retryChannelNow(delivery.channelId, sentAt)) > 0 && polling) wake();
  }

  async function recordAcks(): Promise<void> {
    // Sends that finish in this turn join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (acks.length > 0) {
      const batch = acks;
      acks = [];
      try {
        await store.transaction(async (tx) => {
          for (const ack of batch) await tx.deliveries.markSent(ack.id, ack.sentAt, ack.status, ack.answer);
        });
        for (const ack of batch) ack.resolve();
      } catch (error) {
        for (const ack of batch) ack.reject(error);
      }
    }
    acking = null;
  }

  /** Learns how many sends a target may have in flight, from its definition. */
  function limitOf(delivery: Delivery, definition: ChannelDefinition): void {
    limits.set(targetKeyOf(delivery), Math.max(1, definition.maxInFlight ?? o.channelInFlight));
  }

  /** A 429: the receiver limits the whole webhook or bot, so the target's other deliveries wait until `until` too. */
  function pause(delivery: Delivery, until: number): void {
    const target = targetKeyOf(delivery);
    pausedUntil.set(target, Math.max(until, pausedUntil.get(target) ?? 0));
  }

  /** Hands a paused target's waiting deliveries back, due when the pause ends (no attempt counted). */
  function deferTarget(target: string, until: number): void {
    const ids: string[] = [];
    for (const [lane, queue] of queues) {
      if (queue[0] === undefined || targetKeyOf(queue[0]) !== target) continue;
      for (const delivery of queue) ids.push(delivery.id);
      queues.delete(lane);
    }
    if (ids.length === 0) return;
    for (const id of ids) unhold(id);
    const handing = store.deliveries
      .releaseClaims(ids, until)
      .catch((error) => logFailure(logger, error, 'handing back the deliveries of a rate-limited channel failed', { deliveries: ids.length }));
    deferring.add(handing);
    handing.finally(() => deferring.delete(handing)).catch(() => {});
  }

  /** Where a delivery goes: its channel's definition and parsed config, a reason to give it up, or null when the target is gone. */
  async function targetOf(delivery: Delivery): Promise<Target | { dead: string } | null> {
    if (delivery.channelId === null) {
      // A page subscriber's: no rules of its own (it asked for the page's incidents and maintenance, all of them).
      const target = deps.subscribers ? await deps.subscribers(delivery) : null;
      return target && !('dead' in target) ? { ...target, rules: {} } : target;
    }
    const channel = await store.channels.findById(delivery.channelId);
    if (!channel) return null; // deleted meanwhile: its deliveries went with it
    const definition = deps.channels[channel.type];
    if (!definition) return { dead: `unknown channel type ${channel.type}` };
    if (!channel.enabled) return { dead: 'the channel is disabled' };
    const parsed = definition.config.safeParse(channel.config);
    if (!parsed.success) return { dead: `invalid channel config: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
    return { label: channel.key, channel, definition, config: parsed.data, rules: channel.rules };
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const target = await targetOf(delivery);
    if (!target) return;
    if ('dead' in target) return store.deliveries.markDead(delivery.id, target.dead, null, null);
    limitOf(delivery, target.definition);
    const event = JSON.parse(delivery.event) as NotificationEvent;
    // The rules that can only be judged at send time (the state still holds): a delivery no longer wanted is skipped, kept in the log.
    const skip = deps.gate && delivery.channelId !== null ? await deps.gate(delivery, event, target.rules) : null;
    const { definition, config } = target;
    if (skip !== null) {
      deps.metrics?.delivery(definition.type, 'skipped');
      return store.deliveries.markSkipped(delivery.id, skip);
    }
    // An email channel on the system server: refused, held by a limit, skipped (nobody confirmed), or sent to those who did.
    const screened = deps.systemMail && target.channel ? await deps.systemMail.screen(target.channel, 'alert') : null;
    if (screened && screened.kind !== 'send') return settleScreened(delivery, target, screened);
    const outcome = await sendWithTimeout(definition, event, config, delivery.attempts - 1, await guardOf(delivery.organizationId), screened?.recipients);
    if (stopping.signal.aborted) return; // given up at stop, not acknowledged: stop releases the claim
    const now = clock.now();
    const note = screened?.note ?? null;
    if (note !== null) logger.info({ delivery: delivery.id, channel: target.label, outcome: outcome.kind, note }, 'notification sent to the confirmed recipients only');
    const answer = note === null ? (outcome.answer ?? null) : `${outcome.answer ?? ''}${outcome.answer ? ' · ' : ''}${note}`;
    const delay = outcome.kind !== 'retry' ? 0 : outcome.afterMs !== undefined ? Math.ceil(outcome.afterMs) : backoffMs(delivery.attempts, random(), o.backoffBaseMs, o.backoffMaxMs);
    const givenUp = outcome.kind === 'retry' && now + delay > delivery.createdAt + o.giveUpMs;
    deps.metrics?.delivery(definition.type, outcome.kind === 'sent' ? 'sent' : outcome.kind === 'dead' || givenUp ? 'dead' : 'retry');
    if (outcome.kind === 'sent') return acknowledge(delivery, now, outcome.status, answer);
    if (outcome.kind === 'dead') return store.deliveries.markDead(delivery.id, outcome.error, outcome.status, answer);
    if (outcome.status === 429) pause(delivery, now + delay);
    if (givenUp) return store.deliveries.markDead(delivery.id, `gave up after ${delivery.attempts} attempts: ${outcome.error}`, outcome.status, answer);
    logger.warn({ delivery: delivery.id, channel: target.label, error: outcome.error, retryInMs: delay }, 'notification delivery will be retried');
    return store.deliveries.markRetry(delivery.id, now + delay, outcome.error, outcome.status, answer);
  }

  /** Where an organization's messages may go: its own policy, else the global one (`deny` for one not found). */
  async function guardOf(organizationId: string): Promise<TargetGuard> {
    const now = performance.now();
    if (policies === null || now - policies.at > o.policyMaxAgeMs) {
      const reading = store.organizations.list().then((organizations) => probeTargetPolicies(organizations, deps.privateTargets ?? 'auto'));
      // A failed read is not kept: the next send reads again.
      reading.catch(() => {
        if (policies?.byOrganization === reading) policies = null;
      });
      policies = { at: now, byOrganization: reading };
    }
    return targetGuard((await policies.byOrganization).get(organizationId) ?? 'deny');
  }

  /** A screened delivery not sent: dead when refused, skipped when nobody confirmed, held (its channel paused) by a limit. */
  async function settleScreened(delivery: Delivery, target: Target, screened: Exclude<Screening, { kind: 'send' }>): Promise<void> {
    const type = target.definition.type;
    if (screened.kind === 'refuse') {
      deps.metrics?.delivery(type, 'dead');
      return store.deliveries.markDead(delivery.id, screened.reason, null, null);
    }
    if (screened.kind === 'skip') {
      deps.metrics?.delivery(type, 'skipped');
      logger.info({ delivery: delivery.id, channel: target.label, reason: screened.reason }, 'notification skipped: no recipient confirmed');
      return store.deliveries.markSkipped(delivery.id, screened.reason);
    }
    const now = clock.now();
    const until = now + screened.retryAfterMs;
    if (until > delivery.createdAt + o.giveUpMs) {
      deps.metrics?.delivery(type, 'dead');
      return store.deliveries.markDead(delivery.id, `gave up after ${delivery.attempts} attempts: ${screened.reason}`, null, null);
    }
    // Like a 429: the channel's other deliveries wait too, handed back until the window ends.
    deps.metrics?.delivery(type, 'retry');
    pause(delivery, until);
    logger.warn({ delivery: delivery.id, channel: target.label, reason: screened.reason, retryInMs: screened.retryAfterMs }, 'notification held by the system SMTP limit');
    return store.deliveries.markRetry(delivery.id, until, screened.reason, null, null);
  }

  async function sendWithTimeout(
    definition: ChannelDefinition,
    event: NotificationEvent,
    config: Record<string, unknown>,
    attemptNo: number,
    guard: TargetGuard,
    recipients?: readonly MailRecipient[],
  ): Promise<SendOutcome> {
    const timeout = new AbortController();
    const signal = AbortSignal.any([timeout.signal, stopping.signal]);
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const expired = new Promise<SendOutcome>((resolve) => {
      timer = setTimeout(() => {
        timeout.abort();
        resolve({ kind: 'retry', status: null, error: 'timed out' });
      }, o.attemptTimeoutMs);
      // A channel that ignores the signal does not hold the stop up.
      onStop = () => resolve({ kind: 'retry', status: null, error: 'stopped' });
      stopping.signal.addEventListener('abort', onStop, { once: true });
    });
    try {
      const sent = definition.send(event, config, { signal, now: clock.now(), attempt: attemptNo, guard, smtp: deps.smtp, recipients }).catch(
        (error: unknown): SendOutcome => ({ kind: 'retry', status: null, error: error instanceof Error ? error.message : String(error) }),
      );
      return await Promise.race([sent, expired]);
    } finally {
      clearTimeout(timer);
      if (onStop) stopping.signal.removeEventListener('abort', onStop);
    }
  }

  async function shutdown(): Promise<void> {
    stopped = true;
    if (timer) clearTimeout(timer);
    await Promise.allSettled([claiming, ...claims]);
    await Promise.allSettled([...deferring]);
    const settled = Promise.allSettled([...running]).then(() => true);
    let grace: NodeJS.Timeout | undefined;
    const finished = await Promise.race([settled, new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), o.stopGraceMs)))]);
    clearTimeout(grace);
    if (!finished) {
      stopping.abort();
      await settled;
    }
    // Acknowledgements still being committed are recorded before the claims are handed back.
    await acking?.catch(() => {});
    queues.clear();
    const unfinished = [...held.keys()];
    held.clear();
    heldPerTarget.clear();
    if (unfinished.length === 0) return;
    try {
      const released = await store.deliveries.releaseClaims(unfinished, clock.now());
      logger.info({ released }, 'released the claims of notification deliveries not sent before shutdown');
    } catch (error) {
      // Their leases still lapse: they are sent again, only later.
      logger.error({ err: error, deliveries: unfinished.length }, 'releasing notification claims at shutdown failed');
    }
  }

  async function tick(): Promise<void> {
    await claim();
    // Until everything held is sent or handed back: each finished send starts the next of its lane.
    while (running.size > 0 || deferring.size > 0) await Promise.allSettled([...running, ...deferring]);
  }

  function loop(): void {
    if (stopped || claiming) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    claiming = claim()
      .then(() => undefined)
      .catch((error) => logFailure(logger, error, 'claiming notification deliveries failed'))
      .finally(() => {
        claiming = null;
        if (stopped) return;
        if (again || (moreDue && held.size < o.maxHeld)) {
          again = false;
          setImmediate(loop);
        } else schedule();
      });
  }

  function wake(): void {
    if (!stopped) setImmediate(loop);
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(loop, o.pollMs);
    timer.unref();
  }

  return {
    start() {
      polling = true;
      schedule();
    },
    wake,
    tick,
    stop() {
      stopDone ??= shutdown();
      return stopDone;
    },
  };
}
