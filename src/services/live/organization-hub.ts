// The organization hub: the dashboard's live stream of one organization's monitors, fed by the bus's monitor events.
import type { Following } from '../../bus/bus.js';
import type { Monitor } from '../../domain/monitor.js';
import { type Logger, logFailure } from '../../logger.js';
import type { ServiceContext } from '../context.js';
import type { LiveSubscriber } from './hub.js';
import { LIVE_CLOSE } from './limits.js';
import { type LiveMonitor, liveMonitor, type OrganizationLiveMessage } from './organization-messages.js';

export interface OrganizationHubLimits {
  /** Events are gathered this long, then each monitor that moved is read once and told once. */
  flushMs: number;
  /** Monitors with news held per organization between flushes; past it, the next flush sends a snapshot instead. */
  maxPending: number;
  /** Messages held for a subscriber while its snapshot is read; past it, it is closed (1013: try again). */
  maxQueued: number;
}

export const ORGANIZATION_HUB_LIMITS: OrganizationHubLimits = { flushMs: 250, maxPending: 10_000, maxQueued: 1_000 };

export interface OrganizationHub {
  /** Adds a subscriber to an organization: it is sent the snapshot of its monitors, then every change. Returns the function that removes it. */
  join(organizationId: string, subscriber: LiveSubscriber): Promise<() => void>;
  /** Subscribers over all organizations. */
  size(): number;
  /** Closes every subscriber with this code and stops following the bus. */
  close(code?: number, reason?: string): void;
}

/** A subscriber and the messages held for it until its snapshot went out (null once it did). */
type Joined = { queue: Buffer[] | null };

interface Listening {
  subscribers: Map<LiveSubscriber, Joined>;
  /** The organization's monitor events followed while someone listens (in cluster mode, only then do they arrive). */
  following: Following;
  /** Monitors that moved since the last flush, with the state the first event of the window left (or null: no state change). */
  pending: Map<string, LiveMonitor['state'] | null>;
  /** Monitors were created, changed or deleted (or too many moved): the next flush sends everyone a snapshot. */
  resnapshot: boolean;
}

/** How long a join waits for the organization's events to arrive from every process before reading its snapshot. */
const FOLLOW_READY_MS = 1_000;

/**
 * Follows monitor.state, monitor.checked and monitors.changed (in cluster mode they arrive from every process over the
 * bus, the monitor events while the organization is followed) for the organizations someone listens to. Each flush reads the monitors that moved in one query and serializes
 * each message once for all of the organization's subscribers; nothing of another organization ever reaches them.
 */
export function createOrganizationHub(
  ctx: ServiceContext,
  limits: Partial<OrganizationHubLimits> = {},
): OrganizationHub {
  const { flushMs, maxPending, maxQueued } = { ...ORGANIZATION_HUB_LIMITS, ...limits };
  const listening = new Map<string, Listening>();
  let count = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  const moved = (event: { organizationId: string; monitorId: string }, previous: LiveMonitor['state'] | null) => {
    const entry = listening.get(event.organizationId);
    if (!entry) return;
    if (!entry.pending.has(event.monitorId) || entry.pending.get(event.monitorId) === null)
      entry.pending.set(event.monitorId, previous);
    if (entry.pending.size > maxPending) {
      entry.pending.clear();
      entry.resnapshot = true;
    }
    schedule();
  };
  const unsubscribes = [
    ctx.bus.subscribe('monitor.state', (event) => moved(event, event.previous)),
    ctx.bus.subscribe('monitor.checked', (event) => moved(event, null)),
    ctx.bus.subscribe('monitors.changed', (event) => {
      const entry = listening.get(event.organizationId);
      if (!entry) return;
      entry.resnapshot = true;
      schedule();
    }),
  ];

  function schedule(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      flushing = flushing
        .then(flush)
        .catch((error) => logFailure(ctx.logger, error, 'live: organization flush failed'));
    }, flushMs);
    timer.unref();
  }

  async function flush(): Promise<void> {
    for (const [organizationId, entry] of listening) await flushOne(ctx, organizationId, entry, broadcast);
  }

  const broadcast = (entry: Listening, bytes: Buffer) => broadcastTo(entry, bytes, maxQueued, ctx.logger);
  const deliver = (subscriber: LiveSubscriber, bytes: Buffer) => deliverTo(subscriber, bytes, ctx.logger);
  const closeOne = (subscriber: LiveSubscriber, code: number, reason: string) =>
    closeSubscriber(subscriber, code, reason, ctx.logger);

  return {
    async join(organizationId, subscriber) {
      let entry = listening.get(organizationId);
      if (!entry) {
        entry = {
          subscribers: new Map(),
          following: ctx.bus.follow(organizationId),
          pending: new Map(),
          resnapshot: false,
        };
        listening.set(organizationId, entry);
      }
      // Listening before the snapshot is read: a change committed meanwhile is held and told after it, never lost.
      const joined: Joined = { queue: [] };
      const listened = entry;
      listened.subscribers.set(subscriber, joined);
      count++;
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        listened.subscribers.delete(subscriber);
        count--;
        if (listened.subscribers.size === 0 && listening.get(organizationId) === listened) {
          listening.delete(organizationId);
          listened.following.release();
        }
      };
      try {
        // Another process's result committed after the snapshot is read must reach this one: follow first.
        await listened.following.ready(FOLLOW_READY_MS);
        const snapshot = await snapshotBytes(ctx, organizationId);
        if (left) return leave;
        deliver(subscriber, snapshot);
        for (const bytes of joined.queue ?? []) deliver(subscriber, bytes);
        joined.queue = null;
      } catch (error) {
        leave();
        throw error;
      }
      return leave;
    },
    size: () => count,
    close(code: number = LIVE_CLOSE.goingAway, reason = 'server shutting down') {
      closed = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      if (timer) clearTimeout(timer);
      timer = null;
      for (const entry of [...listening.values()]) {
        for (const subscriber of [...entry.subscribers.keys()]) closeOne(subscriber, code, reason);
        entry.following.release();
      }
    },
  };
}

/** Tells one organization's listeners what moved since the last flush: a new snapshot, then each monitor that moved. */
async function flushOne(
  ctx: ServiceContext,
  organizationId: string,
  entry: Listening,
  broadcast: (entry: Listening, bytes: Buffer) => void,
): Promise<void> {
  if (entry.resnapshot) {
    entry.resnapshot = false;
    broadcast(entry, await snapshotBytes(ctx, organizationId));
    // The monitors checked in the same window are still told of after it (a monitor created or resumed is checked
    // at once): the snapshot carries their state, the message tells a screen its checks and history are stale.
  }
  if (entry.pending.size === 0) return;
  const pending = new Map(entry.pending);
  entry.pending.clear();
  const monitors = await ctx.store.monitors.findByIds([...pending.keys()]);
  const at = ctx.clock.now();
  for (const monitor of monitors) {
    if (monitor.organizationId !== organizationId) continue;
    const view = liveMonitor(monitor);
    broadcast(
      entry,
      serialize({ type: 'monitor', at, monitor: view, previousState: pending.get(monitor.id) ?? view.state }),
    );
  }
}

async function snapshotBytes(ctx: ServiceContext, organizationId: string): Promise<Buffer> {
  const monitors: Monitor[] = await ctx.store.monitors.list(organizationId);
  return serialize({ type: 'snapshot', at: ctx.clock.now(), monitors: monitors.map(liveMonitor) });
}

function serialize(message: OrganizationLiveMessage): Buffer {
  return Buffer.from(JSON.stringify(message));
}

/** Sends to those who joined, queues for those still reading their snapshot (closing one whose queue is full). */
function broadcastTo(entry: Listening, bytes: Buffer, maxQueued: number, logger: Logger): void {
  for (const [subscriber, joined] of entry.subscribers) {
    if (joined.queue === null) deliverTo(subscriber, bytes, logger);
    else if (joined.queue.length < maxQueued) joined.queue.push(bytes);
    else closeSubscriber(subscriber, 1013, 'too many changes while joining; reconnect', logger);
  }
}

function deliverTo(subscriber: LiveSubscriber, bytes: Buffer, logger: Logger): void {
  try {
    subscriber.send(bytes);
  } catch (error) {
    logger.debug({ err: error }, 'live subscriber failed');
  }
}

function closeSubscriber(subscriber: LiveSubscriber, code: number, reason: string, logger: Logger): void {
  try {
    subscriber.close(code, reason);
  } catch (error) {
    logger.debug({ err: error }, 'closing live subscriber failed');
  }
}
