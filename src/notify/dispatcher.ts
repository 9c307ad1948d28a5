// The outbox's send side: claims due deliveries (every ~250 ms, at once when a commit enqueued), sends each through its
// channel's definition with a time limit, and records the outcome: sent, retry with backoff (or the receiver's
// Retry-After), or dead. One delivery in flight per channel, a cap across channels. A graceful stop lets the sends in
// flight finish for a short grace, then hands back the claims of those that did not (sent again at once after a restart);
// a crash mid-send (kill -9) leaves the claim to lapse, and the delivery is sent again with the same event id.
import type { Clock } from '../domain/clock.js';
import type { Delivery, NotificationRules } from '../domain/notification.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { ChannelDefinition, NotificationEvent, SendOutcome } from './channel.js';

export const DISPATCH_DEFAULTS = {
  pollMs: 250,
  /** Sends in flight at most, across channels. */
  concurrency: 16,
  attemptTimeoutMs: 10_000,
  /** How long a claim holds: longer than the local backlog (concurrency × timeout), so no other process re-sends it meanwhile. */
  leaseMs: 300_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
  /** After this long since it was enqueued, a delivery that still fails is dead. */
  giveUpMs: 24 * 3_600_000,
  /** On stop: how long the sends in flight may take to finish before their claims are handed back (well within the shutdown budget). */
  stopGraceMs: 2_000,
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
}

interface Target {
  /** Names the target in logs (the channel's key), never a secret. */
  label: string;
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

/** Deliveries of one lane (a channel, or a page subscriber) are sent one at a time, in claim order. */
function laneOf(delivery: Delivery): string {
  return delivery.channelId ?? `subscriber:${delivery.subscriberId}`;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const o = { ...DISPATCH_DEFAULTS, ...deps.options };
  const random = deps.random ?? Math.random;
  const { store, clock, logger } = deps;
  /** Claimed here and not yet recorded, by id: a lapsed claim re-taken by this process is not sent twice. */
  const held = new Set<string>();
  /** Per channel: the one delivery in flight and those waiting behind it, in claim order. */
  const queues = new Map<string, Delivery[]>();
  const busy = new Set<string>();
  const running = new Set<Promise<void>>();
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

  async function claim(): Promise<Promise<void>[]> {
    const room = o.concurrency - held.size;
    if (room <= 0 || stopped) return [];
    const taking = store.notifications.claimDue(clock.now(), room, o.leaseMs);
    claims.add(taking);
    const claimed = await taking.finally(() => claims.delete(taking));
    const started: Promise<void>[] = [];
    for (const delivery of claimed) {
      if (held.has(delivery.id)) continue;
      held.add(delivery.id);
      const lane = laneOf(delivery);
      const queue = queues.get(lane) ?? [];
      queue.push(delivery);
      queues.set(lane, queue);
    }
    for (const channelId of queues.keys()) {
      const run = pump(channelId);
      if (run) started.push(run);
    }
    return started;
  }

  /** Sends a channel's queue one at a time, if it is not already being sent. */
  function pump(channelId: string): Promise<void> | null {
    if (busy.has(channelId)) return null;
    busy.add(channelId);
    const run = (async () => {
      try {
        for (;;) {
          const queue = queues.get(channelId);
          const next = queue?.shift();
          if (!next || stopped) break;
          try {
            await attempt(next);
          } catch (error) {
            logger.error({ err: error, delivery: next.id }, 'recording a notification delivery failed');
          } finally {
            // Given up at the end of the stop grace: still held, so stop releases its claim.
            if (!stopping.signal.aborted) held.delete(next.id);
          }
        }
      } finally {
        busy.delete(channelId);
        if ((queues.get(channelId)?.length ?? 0) === 0) queues.delete(channelId);
      }
    })();
    running.add(run);
    run.finally(() => running.delete(run)).catch(() => {});
    return run;
  }

  /** Where a delivery goes: its channel's definition and parsed config, a reason to give it up, or null when the target is gone. */
  async function targetOf(delivery: Delivery): Promise<Target | { dead: string } | null> {
    if (delivery.channelId === null) return null;
    const channel = await store.notifications.findChannel(delivery.channelId);
    if (!channel) return null; // deleted meanwhile: its deliveries went with it
    const definition = deps.channels[channel.type];
    if (!definition) return { dead: `unknown channel type ${channel.type}` };
    if (!channel.enabled) return { dead: 'the channel is disabled' };
    const parsed = definition.config.safeParse(channel.config);
    if (!parsed.success) return { dead: `invalid channel config: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
    return { label: channel.key, definition, config: parsed.data, rules: channel.rules };
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const target = await targetOf(delivery);
    if (!target) return;
    if ('dead' in target) return store.notifications.markDead(delivery.id, target.dead, null, null);
    const event = JSON.parse(delivery.event) as NotificationEvent;
    // The rules that can only be judged at send time (the state still holds): a delivery no longer wanted is skipped, kept in the log.
    const skip = deps.gate ? await deps.gate(delivery, event, target.rules) : null;
    if (skip !== null) return store.notifications.markSkipped(delivery.id, skip);
    const { definition, config } = target;
    const outcome = await sendWithTimeout(definition, event, config, delivery.attempts - 1);
    if (stopping.signal.aborted) return; // given up at stop, not acknowledged: stop releases the claim
    const now = clock.now();
    const answer = outcome.answer ?? null;
    if (outcome.kind === 'sent') return store.notifications.markSent(delivery.id, now, outcome.status, answer);
    if (outcome.kind === 'dead') return store.notifications.markDead(delivery.id, outcome.error, outcome.status, answer);
    const delay = outcome.afterMs !== undefined ? Math.ceil(outcome.afterMs) : backoffMs(delivery.attempts, random(), o.backoffBaseMs, o.backoffMaxMs);
    if (now + delay > delivery.createdAt + o.giveUpMs)
      return store.notifications.markDead(delivery.id, `gave up after ${delivery.attempts} attempts: ${outcome.error}`, outcome.status, answer);
    logger.warn({ delivery: delivery.id, channel: target.label, error: outcome.error, retryInMs: delay }, 'notification delivery will be retried');
    return store.notifications.markRetry(delivery.id, now + delay, outcome.error, outcome.status, answer);
  }

  async function sendWithTimeout(definition: ChannelDefinition, event: NotificationEvent, config: Record<string, unknown>, attemptNo: number): Promise<SendOutcome> {
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
      const sent = definition.send(event, config, { signal, now: clock.now(), attempt: attemptNo }).catch(
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
    const settled = Promise.allSettled([...running]).then(() => true);
    let grace: NodeJS.Timeout | undefined;
    const finished = await Promise.race([settled, new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), o.stopGraceMs)))]);
    clearTimeout(grace);
    if (!finished) {
      stopping.abort();
      await settled;
    }
    queues.clear();
    const unfinished = [...held];
    held.clear();
    if (unfinished.length === 0) return;
    try {
      const released = await store.notifications.releaseClaims(unfinished, clock.now());
      logger.info({ released }, 'released the claims of notification deliveries not sent before shutdown');
    } catch (error) {
      // Their leases still lapse: they are sent again, only later.
      logger.error({ err: error, deliveries: unfinished.length }, 'releasing notification claims at shutdown failed');
    }
  }

  async function tick(): Promise<void> {
    const started = await claim();
    await Promise.all(started);
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
      .catch((error) => logger.error({ err: error }, 'claiming notification deliveries failed'))
      .finally(() => {
        claiming = null;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(loop);
        } else schedule();
      });
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(loop, o.pollMs);
    timer.unref();
  }

  return {
    start() {
      schedule();
    },
    wake() {
      if (!stopped) setImmediate(loop);
    },
    tick,
    stop() {
      stopDone ??= shutdown();
      return stopDone;
    },
  };
}
