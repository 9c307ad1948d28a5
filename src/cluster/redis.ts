// Cluster mode's two Redis connections: commands (publishing events, the shared rate limits) and a subscriber. Both
// reconnect by themselves; neither ever makes a request wait for Redis (commands fail at once while it is down).
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

export const REDIS_DEFAULTS = {
  /** A command not answered within this fails (its caller falls back: an event dropped, a per-process limit). */
  commandTimeoutMs: 1_000,
  connectTimeoutMs: 2_000,
  /** Reconnection attempts back off by this much per attempt, up to `reconnectMaxMs`. */
  reconnectStepMs: 100,
  reconnectMaxMs: 1_000,
} as const;

export interface RedisConnections {
  /** Commands: PUBLISH and the rate limiters' scripts. Offline, a command fails at once rather than queueing. */
  commands: Redis;
  /** SUBSCRIBE only; the bus subscribes again on each reconnection (when it can tell the subscription is back). */
  subscriber: Redis;
  /** Quits both (a short grace, then the sockets are dropped). */
  close(): Promise<void>;
}

export function connectRedis(url: string, options: { instanceId: string; logger: Logger }): RedisConnections {
  const common = {
    connectTimeout: REDIS_DEFAULTS.connectTimeoutMs,
    retryStrategy: (attempt: number) =>
      Math.min(attempt * REDIS_DEFAULTS.reconnectStepMs, REDIS_DEFAULTS.reconnectMaxMs),
    // Never give up on a command because of reconnections: the offline queue (subscriber) or the timeout bounds it.
    maxRetriesPerRequest: null,
  };
  const commands = new Redis(url, {
    ...common,
    connectionName: `warden:${options.instanceId}:commands`,
    enableOfflineQueue: false,
    commandTimeout: REDIS_DEFAULTS.commandTimeoutMs,
    // Concurrent commands (one rate-limit check per request) leave in one write.
    enableAutoPipelining: true,
  });
  const subscriber = new Redis(url, {
    ...common,
    connectionName: `warden:${options.instanceId}:events`,
    autoResubscribe: false,
  });
  // ioredis emits an error per failed attempt while Redis is away: the bus logs the outage once, these at debug.
  for (const [role, client] of [
    ['commands', commands],
    ['events', subscriber],
  ] as const)
    client.on('error', (error: Error) =>
      options.logger.debug({ err: error, connection: role }, 'redis connection error'),
    );
  return {
    commands,
    subscriber,
    async close() {
      await Promise.all([commands, subscriber].map((client) => quit(client)));
    },
  };
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, 500).unref());
  await Promise.race([
    client.quit().then(
      () => {},
      () => {},
    ),
    timeout,
  ]);
  client.disconnect();
}
