// The outbox's send side, the loop: claims due deliveries (every ~250 ms, at once when a commit enqueued), hands them to
// the lane scheduler (lanes.ts: per channel and monitor, one at a time and in order, up to the channel's maxInFlight and
// a cap across channels, a 429 pausing the whole channel), and runs each attempt it starts (attempt.ts: send, decide
// with policy.ts, record, acknowledgements batched by acks.ts). A graceful stop lets the sends in flight finish for a
// short grace, then hands back the claims of those that did not (sent again at once after a restart); a crash mid-send
// (kill -9) leaves the claim to lapse, and the delivery is sent again with the same event id.
import type { Delivery } from '../../domain/notification.js';
import { type Logger, logFailure } from '../../logger.js';
import { createAcknowledgements } from './acks.js';
import { createAttempt } from './attempt.js';
import { createLaneScheduler, type Deferral, type Start } from './lanes.js';
import { DISPATCH_DEFAULTS, type Dispatcher, type DispatcherDeps } from './options.js';

export { DISPATCH_DEFAULTS, type Dispatcher, type DispatcherDeps } from './options.js';

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const o = { ...DISPATCH_DEFAULTS, ...deps.options };
  // A claim shorter than one attempt could never be sent: each would be handed back at once.
  if (o.leaseMs <= o.attemptTimeoutMs)
    throw new Error(`leaseMs (${o.leaseMs}) must exceed attemptTimeoutMs (${o.attemptTimeoutMs})`);
  const { store, clock, logger } = deps;
  const lanes = createLaneScheduler(o);
  const acks = createAcknowledgements(store);
  /** Aborted when the stop grace is over: the sends still in flight are given up without being recorded. */
  const stopping = new AbortController();
  const attempt = createAttempt(deps, o, {
    lanes,
    acks,
    stopping: stopping.signal,
    retriesDue: () => polling && wake(),
  });
  /** Sends in flight; paused targets' deliveries being handed back; claims under way: tick and stop wait for them. */
  const running = new Set<Promise<void>>();
  const handBacks = createHandBacks(deps);
  const claims = new Set<Promise<unknown>>();
  /** Channels left out of the last claim (they had enough held), and whether it filled its room: more may be due. */
  let skipped = new Set<string>();
  let moreDue = false;
  /** Polling (start): a send that leaves room tops the claim up at once. */
  let polling = false;
  /** No more claims, and each lane stops after its current send. */
  let stopped = false;
  let stopDone: Promise<void> | null = null;
  const poller = createPoller(claim, {
    pollMs: o.pollMs,
    logger,
    stopped: () => stopped,
    more: () => moreDue && lanes.held() < o.maxHeld,
  });
  const wake = poller.wake;

  async function claim(): Promise<void> {
    const { room, skipChannels } = lanes.room();
    if (room <= 0 || stopped) return;
    const taking = store.deliveries.claimDue(clock.now(), room, o.leaseMs, skipChannels);
    claims.add(taking);
    const claimed = await taking.finally(() => claims.delete(taking));
    skipped = new Set(skipChannels);
    moreDue = lanes.add(claimed) === room;
    startSends();
  }

  /** Starts what the scheduler says there is room for, and hands paused targets' deliveries back. */
  function startSends(): void {
    if (stopped) return;
    const { starts, deferrals } = lanes.next(clock.now(), running.size);
    for (const deferral of deferrals) handBacks.add(deferral);
    for (const start of starts) send(start);
  }

  function send(start: Start): void {
    const { delivery } = start;
    const run = (async () => {
      try {
        if (lapsing(delivery)) await store.deliveries.releaseClaims([delivery.id], clock.now());
        else await attempt(delivery);
      } catch (error) {
        logFailure(logger, error, 'recording a notification delivery failed', { delivery: delivery.id });
      } finally {
        // Given up at the end of the stop grace: still held, so stop releases its claim.
        lanes.finish(start, !stopping.signal.aborted);
      }
    })();
    running.add(run);
    run
      .finally(() => {
        running.delete(run);
        startSends();
        // Room again: top the claim up now rather than at the next poll, when more is due.
        const refill =
          (moreDue && lanes.held() <= o.maxHeld / 2) ||
          (skipped.has(start.target) && lanes.held(start.target) <= o.maxHeldPerChannel / 2);
        if (polling && refill) wake();
      })
      .catch(() => {});
  }

  /** Its claim would lapse before the send could finish: another process may take it then, so it is handed back now. */
  function lapsing(delivery: Delivery): boolean {
    return delivery.claimedUntil !== null && clock.now() + o.attemptTimeoutMs >= delivery.claimedUntil;
  }

  async function shutdown(): Promise<void> {
    stopped = true;
    poller.stop();
    await Promise.allSettled([poller.claiming(), ...claims]);
    await Promise.allSettled(handBacks.pending());
    await finishOrAbandon(running, o.stopGraceMs, stopping);
    // Acknowledgements still being committed are recorded before the claims are handed back.
    await acks.pending()?.catch(() => {});
    await releaseAtStop(deps, lanes.drain());
  }

  async function tick(): Promise<void> {
    await claim();
    // Until everything held is sent or handed back: each finished send starts the next of its lane. A claim the poller
    // has under way (a commit woke it) may hold what is due, which this one's found taken: its sends are this round's.
    const pending = () => [...running, ...handBacks.pending(), ...[poller.claiming()].filter((c) => c !== null)];
    while (pending().length > 0) await Promise.allSettled(pending());
  }

  return {
    start() {
      polling = true;
      poller.schedule();
    },
    wake,
    tick,
    stop() {
      stopDone ??= shutdown();
      return stopDone;
    },
  };
}

/** Hands paused targets' deliveries back (their claims released until the pause ends), keeping what is under way. */
function createHandBacks({ store, logger }: Pick<DispatcherDeps, 'store' | 'logger'>): {
  add(deferral: Deferral): void;
  size(): number;
  pending(): Promise<unknown>[];
} {
  const deferring = new Set<Promise<unknown>>();
  return {
    add({ ids, until }) {
      const handing = store.deliveries.releaseClaims(ids, until).catch((error) =>
        logFailure(logger, error, 'handing back the deliveries of a rate-limited channel failed', {
          deliveries: ids.length,
        }),
      );
      deferring.add(handing);
      handing.finally(() => deferring.delete(handing)).catch(() => {});
    },
    size: () => deferring.size,
    pending: () => [...deferring],
  };
}

/** Lets the sends in flight finish for up to `graceMs`; past it, aborts them (not recorded) and waits for them to end. */
async function finishOrAbandon(
  running: ReadonlySet<Promise<void>>,
  graceMs: number,
  stopping: AbortController,
): Promise<void> {
  const settled = Promise.allSettled([...running]).then(() => true);
  let grace: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    settled,
    new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(grace);
  if (!finished) {
    stopping.abort();
    await settled;
  }
}

/** Hands back the claims of the deliveries held but not recorded at stop: due at once for the next dispatcher. */
async function releaseAtStop(
  { store, clock, logger }: Pick<DispatcherDeps, 'store' | 'clock' | 'logger'>,
  unfinished: string[],
): Promise<void> {
  if (unfinished.length === 0) return;
  try {
    const released = await store.deliveries.releaseClaims(unfinished, clock.now());
    logger.info({ released }, 'released the claims of notification deliveries not sent before shutdown');
  } catch (error) {
    // Their leases still lapse: they are sent again, only later.
    logger.error({ err: error, deliveries: unfinished.length }, 'releasing notification claims at shutdown failed');
  }
}

/**
 * The claim loop: a claim every `pollMs`, at once when woken (a commit enqueued, room again) or while more is due;
 * one claim at a time (a wake during one claims again right after it).
 */
function createPoller(
  claim: () => Promise<void>,
  o: { pollMs: number; logger: Logger; stopped: () => boolean; more: () => boolean },
): { wake(): void; schedule(): void; stop(): void; claiming(): Promise<void> | null } {
  let timer: NodeJS.Timeout | null = null;
  let claiming: Promise<void> | null = null;
  let again = false;

  function loop(): void {
    if (o.stopped() || claiming) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    claiming = claim()
      .catch((error) => logFailure(o.logger, error, 'claiming notification deliveries failed'))
      .finally(() => {
        claiming = null;
        if (o.stopped()) return;
        if (again || o.more()) {
          again = false;
          setImmediate(loop);
        } else schedule();
      });
  }

  function schedule(): void {
    if (o.stopped()) return;
    timer = setTimeout(loop, o.pollMs);
    timer.unref();
  }

  return {
    wake: () => {
      if (!o.stopped()) setImmediate(loop);
    },
    schedule,
    stop: () => {
      if (timer) clearTimeout(timer);
    },
    claiming: () => claiming,
  };
}
