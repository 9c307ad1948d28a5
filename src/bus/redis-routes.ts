// Where an event goes over Redis: monitor events to their organization's channel, followed only by the processes that
// keep something of that organization; every other event to the channel all processes hear.
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { Following } from './bus.js';
import type { WardenEvent } from './events.js';

/** The channel of one organization's monitor events: `<channel>:org:<organization id>`. */
export function organizationChannel(channel: string, organizationId: string): string {
  return `${channel}:org:${organizationId}`;
}

/** The hot events (one per stored result) go to the organization's channel; the rare ones to everyone. */
export function channelOf(channel: string, event: WardenEvent): string {
  return event.type === 'monitor.checked' || event.type === 'monitor.state'
    ? organizationChannel(channel, event.organizationId)
    : channel;
}

/** The events grouped by the channel each goes to, each group in publishing order. */
export function byChannel(channel: string, events: readonly WardenEvent[]): Map<string, WardenEvent[]> {
  const groups = new Map<string, WardenEvent[]>();
  for (const event of events) {
    const name = channelOf(channel, event);
    const group = groups.get(name);
    if (group) group.push(event);
    else groups.set(name, [event]);
  }
  return groups;
}

interface Followed {
  /** Interests not yet released. */
  count: number;
  /** Whether the server confirmed the subscription on the current connection. */
  confirmed: boolean;
  waiters: Set<() => void>;
}

export interface Follows {
  follow(organizationId: string): Following;
  /** Whether a message from this channel is one this process follows. */
  has(name: string): boolean;
  /** The channels followed now (subscribed again with the events channel on each connection). */
  names(): string[];
  /** The server confirmed these subscriptions. */
  confirmed(names: readonly string[]): void;
  /** The connection was lost: nothing is confirmed until it is subscribed again. */
  lost(): void;
  /** Releases every waiter (the bus closes). */
  clear(): void;
}

/**
 * The organizations followed, counted per interest: the first subscribes to the channel, the last release unsubscribes.
 * `up()` says whether the subscriber connection is subscribed now: while it is not, `ready` answers false at once.
 */
export function createFollows(options: {
  subscriber: Redis;
  channel: string;
  logger: Logger;
  up: () => boolean;
  /** Tells the other processes this one follows these channels; resolves once they all have been told. */
  announce: (names: readonly string[]) => Promise<void>;
}): Follows {
  const { subscriber, channel, logger, announce } = options;
  const followed = new Map<string, Followed>();

  function confirm(name: string): void {
    const entry = followed.get(name);
    if (!entry) return;
    entry.confirmed = true;
    for (const wake of entry.waiters) wake();
    entry.waiters.clear();
  }

  function subscribeTo(name: string): void {
    subscriber.subscribe(name).then(
      () => {
        // Followed once every process that stopped publishing to the channel (nobody followed it) knows.
        if (subscriber.status !== 'ready') return;
        void announce([name]).then(() => {
          if (subscriber.status === 'ready') confirm(name);
        });
      },
      (error: unknown) => logger.debug({ err: error, channel: name }, 'following an organization failed; retrying'),
    );
  }

  function ready(name: string, entry: Followed, timeoutMs: number): Promise<boolean> {
    if (entry.confirmed) return Promise.resolve(true);
    if (!options.up()) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(followed.get(name) === entry && entry.confirmed);
      };
      const timer = setTimeout(() => {
        entry.waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      entry.waiters.add(wake);
    });
  }

  return {
    follow(organizationId) {
      const name = organizationChannel(channel, organizationId);
      let entry = followed.get(name);
      if (!entry) {
        entry = { count: 0, confirmed: false, waiters: new Set() };
        followed.set(name, entry);
        // While the connection is down, the subscription is made with the events channel when it is back.
        if (subscriber.status === 'ready') subscribeTo(name);
      }
      entry.count++;
      const mine = entry;
      let released = false;
      return {
        ready: (timeoutMs) => (released ? Promise.resolve(false) : ready(name, mine, timeoutMs)),
        release() {
          if (released) return;
          released = true;
          mine.count--;
          if (mine.count > 0 || followed.get(name) !== mine) return;
          followed.delete(name);
          for (const wake of mine.waiters) wake();
          if (subscriber.status === 'ready') subscriber.unsubscribe(name).catch(() => {});
        },
      };
    },
    has: (name) => followed.has(name),
    names: () => [...followed.keys()],
    confirmed(names) {
      for (const name of names) confirm(name);
    },
    lost() {
      for (const entry of followed.values()) entry.confirmed = false;
    },
    clear() {
      for (const entry of followed.values()) for (const wake of entry.waiters) wake();
      followed.clear();
    },
  };
}
