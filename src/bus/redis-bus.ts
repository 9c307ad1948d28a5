// The bus of cluster mode: events reach this process's subscribers at once, and other processes' over Redis pub/sub —
// monitor events only those following the organization (redis-routes.ts), and not at all while nobody follows it
// (quiet-channels.ts). What a process publishes comes back to it from Redis and is ignored (it was delivered already).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { type Bus, createInProcessBus } from './bus.js';
import type { WardenEvent, WardenEventType } from './events.js';
import { createQuietChannels } from './quiet-channels.js';
import { byChannel, createFollows } from './redis-routes.js';

export const REDIS_BUS_LIMITS = {
  /** Events published in one turn of the event loop (one ingest batch) leave in one message per channel of at most this many. */
  eventsPerMessage: 500,
  /** How often the subscriber connection is pinged: a connection that stopped answering is dropped and reconnected. */
  pingEveryMs: 2_000,
  /** A ping unanswered for this long counts the connection lost. */
  pingTimeoutMs: 2_000,
  /** How long a process that announced what it follows waits, at most, to hear its announcement back. */
  announceEchoMs: 2_000,
} as const;

/** Every event type there is: a message naming another (a newer version's, during a rolling upgrade) is skipped. */
const EVENT_TYPES: ReadonlySet<WardenEventType> = new Set<WardenEventType>([
  'monitor.state',
  'monitor.checked',
  'page.changed',
  'monitors.changed',
  'notifications.changed',
]);

/**
 * What goes over the channel: who sent it (its instance id, and this bus's nonce) and the events, in order; or, on the
 * events channel, the organization channels a process now follows (`follows`, with an `id` the sender waits to hear
 * back). A process of an older version skips a message without events.
 */
interface Message {
  from: string;
  nonce: string;
  events?: WardenEvent[];
  follows?: string[];
  id?: string;
}

export interface RedisBus extends Bus {
  /** Delivers to this process's subscribers only: what polling PostgreSQL recovered while Redis was away. */
  deliverLocally(event: WardenEvent): void;
  /** Whether other processes' events arrive now (the subscription is up). */
  connected(): boolean;
  /** Called with false when the subscription is lost, and true when it is made (the first time too). */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Resolves once subscribed (or after `timeoutMs`, still unsubscribed: events then arrive by polling). */
  subscribed(timeoutMs: number): Promise<boolean>;
}

export interface RedisBusOptions {
  /** Publishes; commands on it fail at once while Redis is away (see cluster/redis.ts). */
  publisher: Redis;
  /** Used for SUBSCRIBE only. */
  subscriber: Redis;
  /** The channel, e.g. `warden:events`; processes of one cluster share it (and its `:org:<id>` channels). */
  channel: string;
  instanceId: string;
  logger: Logger;
  onHandlerError?: (error: unknown, event: WardenEvent) => void;
}

export function createRedisBus(options: RedisBusOptions): RedisBus {
  const { publisher, subscriber, channel, instanceId, logger } = options;
  const local = createInProcessBus(options.onHandlerError);
  /** This bus's messages come back from Redis: told apart even from a process misconfigured with the same instance id. */
  const nonce = randomBytes(8).toString('hex');
  const listeners = new Set<(connected: boolean) => void>();
  let pending: WardenEvent[] = [];
  let flushing: NodeJS.Immediate | null = null;
  let up = false;
  let closed = false;
  let publishFailing = false;
  let firstSubscription: (() => void) | null = null;
  const firstSubscribed = new Promise<void>((resolve) => {
    firstSubscription = resolve;
  });
  const quiet = createQuietChannels<WardenEvent>();
  /** Announcements sent and not heard back yet, by id. */
  const echoes = new Map<string, () => void>();
  /** Moves on each time the subscription is lost: a confirmation of an earlier connection's is then ignored. */
  let connection = 0;

  /**
   * Tells every process that this one follows these channels, so that those that stopped publishing there start
   * again; resolves once Redis has delivered the announcement to every process (this one hears it back), so a reader
   * that waited for it misses no event published after. Never rejects: without Redis, nothing was skipped meanwhile.
   */
  function announce(names: readonly string[]): Promise<void> {
    if (names.length === 0 || closed) return Promise.resolve();
    const id = randomBytes(6).toString('hex');
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        echoes.delete(id);
        resolve();
      };
      const timer = setTimeout(done, REDIS_BUS_LIMITS.announceEchoMs);
      echoes.set(id, done);
      const message: Message = { from: instanceId, nonce, follows: [...names], id };
      publisher.publish(channel, JSON.stringify(message)).catch(done);
    });
  }

  const follows = createFollows({ subscriber, channel, logger, up: () => up && !closed, announce });

  function setConnected(value: boolean): void {
    if (value === up || closed) return;
    up = value;
    if (!value) {
      connection++;
      follows.lost();
      // Announcements cannot be heard meanwhile: publish everywhere until the subscription is back.
      quiet.reset();
    }
    if (value) firstSubscription?.();
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        logger.error({ err: error }, 'redis connection listener failed');
      }
    }
  }

  function onMessage(from: string, text: string): void {
    if (from !== channel && !follows.has(from)) return;
    const message = messageOf(text);
    if (message === undefined) {
      logger.debug({ channel }, 'unreadable message on the event channel skipped');
      return;
    }
    if (from === channel && Array.isArray(message.follows)) {
      // What was skipped while the follower's announcement was on its way goes to it now (quiet-channels.ts).
      const held = quiet.followed(message.follows.filter((name) => typeof name === 'string'));
      for (const [name, events] of held) sendAll(name, events);
      if (message.nonce === nonce && typeof message.id === 'string') echoes.get(message.id)?.();
    }
    for (const event of eventsOf(message, nonce)) local.publish(event);
  }

  function flush(): void {
    flushing = null;
    const groups = byChannel(channel, pending);
    pending = [];
    for (const [name, events] of groups) {
      if (name !== channel && up && quiet.skip(name, events)) continue;
      sendAll(name, events);
    }
  }

  function sendAll(name: string, events: WardenEvent[]): void {
    for (let start = 0; start < events.length; start += REDIS_BUS_LIMITS.eventsPerMessage)
      send(name, events.slice(start, start + REDIS_BUS_LIMITS.eventsPerMessage));
  }

  function send(name: string, events: WardenEvent[]): void {
    const message: Message = { from: instanceId, nonce, events };
    const epoch = quiet.epoch();
    publisher.publish(name, JSON.stringify(message)).then(
      (receivers) => {
        if (name !== channel && up) quiet.answered(name, epoch, receivers);
        if (publishFailing) logger.info({ channel }, 'publishing events to redis again');
        publishFailing = false;
      },
      (error: unknown) => {
        // The other processes make up for lost events by polling PostgreSQL while their subscription is down, and
        // by the snapshot's maximum age otherwise (docs/cluster.md). Logged once per spell.
        if (!publishFailing)
          logger.warn(
            { err: error, channel },
            'publishing events to redis failed: other processes see them by polling',
          );
        publishFailing = true;
      },
    );
  }

  function subscribe(): void {
    // Connected from the server's confirmation on: a catch-up poll started then misses nothing published after it.
    // The organizations followed are subscribed again with the events channel (autoResubscribe is off).
    const names = follows.names();
    subscriber.subscribe(channel, ...names).then(
      () => {
        if (subscriber.status !== 'ready') return;
        setConnected(true);
        const current = connection;
        void announce(names).then(() => {
          if (current === connection && up) follows.confirmed(names);
        });
      },
      (error: unknown) =>
        logger.debug({ err: error, channel }, 'subscribing to the event channel failed; retrying on reconnection'),
    );
  }
  subscriber.on('message', onMessage);
  subscriber.on('ready', subscribe);
  subscriber.on('close', () => setConnected(false));
  if (subscriber.status === 'ready') subscribe();
  const pinger = pingWhileUp(subscriber, () => up && !closed);

  return {
    publish(event) {
      local.publish(event);
      if (closed) return;
      pending.push(event);
      flushing ??= setImmediate(flush);
    },
    subscribe: local.subscribe,
    follow: (organizationId) => follows.follow(organizationId),
    deliverLocally: (event) => local.publish(event),
    connected: () => up,
    onConnectionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async subscribed(timeoutMs) {
      if (up) return true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([firstSubscribed, timeout]);
      clearTimeout(timer);
      return up;
    },
    async close() {
      if (flushing) {
        clearImmediate(flushing);
        flush();
      }
      closed = true;
      for (const done of [...echoes.values()]) done();
      clearInterval(pinger);
      listeners.clear();
      follows.clear();
      subscriber.off('message', onMessage);
      await local.close();
    },
  };
}

/** A message as sent; undefined when it is not a JSON object. */
function messageOf(text: string): Message | undefined {
  try {
    const message = JSON.parse(text) as unknown;
    return message !== null && typeof message === 'object' ? (message as Message) : undefined;
  } catch {
    return undefined;
  }
}

/** A message's events from other buses (none from this one, by its nonce). */
function eventsOf(message: Message, nonce: string): WardenEvent[] {
  if (message.nonce === nonce || !Array.isArray(message.events)) return [];
  return message.events.filter((event) => event && typeof event === 'object' && EVENT_TYPES.has(event.type));
}

/**
 * A half-open connection (the host gone without a reset) looks up until a ping goes unanswered: pings the subscriber
 * while `live()`, and drops the connection (ioredis reconnects) when one goes unanswered.
 */
function pingWhileUp(subscriber: RedisBusOptions['subscriber'], live: () => boolean): NodeJS.Timeout {
  const pinger = setInterval(() => {
    if (!live()) return;
    let answered = false;
    const timer = setTimeout(() => {
      if (!answered && live() && subscriber.status === 'ready') subscriber.disconnect(true);
    }, REDIS_BUS_LIMITS.pingTimeoutMs);
    timer.unref();
    subscriber.ping().then(
      () => {
        answered = true;
        clearTimeout(timer);
      },
      () => {},
    );
  }, REDIS_BUS_LIMITS.pingEveryMs);
  pinger.unref();
  return pinger;
}
