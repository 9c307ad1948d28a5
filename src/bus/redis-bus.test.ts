import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, redisAvailable, TcpProxy } from '../../test/cluster-harness.js';
import { connectRedis, type RedisConnections } from '../cluster/redis.js';
import { createLogger } from '../logger.js';
import type { Bus } from './bus.js';
import type { WardenEvent } from './events.js';
import { createRedisBus, type RedisBus } from './redis-bus.js';
import { organizationChannel } from './redis-routes.js';

const logger = createLogger('silent');
const checked = (monitorId: string, at = 1): WardenEvent => ({
  type: 'monitor.checked',
  at,
  monitorId,
  organizationId: 'org',
  ok: true,
});

describe.skipIf(!redisAvailable)('the Redis bus', () => {
  const opened: { bus: RedisBus; redis: RedisConnections }[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    for (const { bus, redis } of opened.splice(0)) {
      await bus.close();
      await redis.close();
    }
    for (const proxy of proxies.splice(0)) await proxy.close();
  });

  /** A bus following the organization of `checked` (its monitor events reach it only then). */
  async function open(channel: string, instanceId: string, url = REDIS_URL): Promise<RedisBus> {
    const redis = connectRedis(url, { instanceId, logger });
    const bus = createRedisBus({
      publisher: redis.commands,
      subscriber: redis.subscriber,
      channel,
      instanceId,
      logger,
    });
    opened.push({ bus, redis });
    expect(await bus.subscribed(5000)).toBe(true);
    expect(await bus.follow('org').ready(5000)).toBe(true);
    return bus;
  }
  const channel = () => `test-${randomBytes(6).toString('hex')}:events`;
  const collect = (bus: Bus) => {
    const seen: WardenEvent[] = [];
    bus.subscribe('monitor.checked', (event) => void seen.push(event));
    bus.subscribe('page.changed', (event) => void seen.push(event));
    return seen;
  };

  it('delivers to its own subscribers at once and to the other process’s over Redis, never twice', async () => {
    const name = channel();
    const [a, b] = [await open(name, 'a'), await open(name, 'b')];
    const [onA, onB] = [collect(a), collect(b)];
    a.publish(checked('m1'));
    expect(onA).toEqual([checked('m1')]);
    await vi.waitFor(() => expect(onB).toEqual([checked('m1')]), { timeout: 2000, interval: 5 });
    b.publish({ type: 'page.changed', at: 2, pageId: 'p1' });
    await vi.waitFor(() => expect(onA).toHaveLength(2), { timeout: 2000, interval: 5 });
    // Its own message came back from Redis too, and was skipped.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onA).toEqual([checked('m1'), { type: 'page.changed', at: 2, pageId: 'p1' }]);
    expect(onB).toEqual([checked('m1'), { type: 'page.changed', at: 2, pageId: 'p1' }]);
  });

  it('tells two processes apart even when they were given the same instance id', async () => {
    const name = channel();
    const [a, b] = [await open(name, 'same'), await open(name, 'same')];
    const onB = collect(b);
    a.publish(checked('m1'));
    await vi.waitFor(() => expect(onB).toEqual([checked('m1')]), { timeout: 2000, interval: 5 });
  });

  it('sends a burst of events in order, batched, and skips what it cannot read', async () => {
    const name = channel();
    const [a, b] = [await open(name, 'a'), await open(name, 'b')];
    const onB = collect(b);
    const spy = new Redis(REDIS_URL);
    const messages: string[] = [];
    try {
      await spy.subscribe(organizationChannel(name, 'org'));
      spy.on('message', (_channel: string, text: string) => void messages.push(text));
      for (let i = 0; i < 1200; i++) a.publish(checked(`m${i}`, i));
      await vi.waitFor(() => expect(onB).toHaveLength(1200), { timeout: 5000, interval: 10 });
      expect(onB.map((event) => event.at)).toEqual(Array.from({ length: 1200 }, (_, i) => i));
      // One turn of the event loop, 500 events a message at most: three messages, not 1200.
      expect(messages).toHaveLength(3);
      const publisher = new Redis(REDIS_URL);
      await publisher.publish(name, 'not json');
      await publisher.publish(
        name,
        JSON.stringify({ from: 'x', nonce: 'y', events: [{ type: 'from.the.future', at: 1 }, null, checked('late')] }),
      );
      publisher.disconnect();
      await vi.waitFor(() => expect(onB.at(-1)).toEqual(checked('late')), { timeout: 2000, interval: 5 });
      expect(onB).toHaveLength(1201);
    } finally {
      spy.disconnect();
    }
  });

  it('says when its subscription is lost and when it is back, and events flow again', async () => {
    const name = channel();
    const proxy = await TcpProxy.toRedis(REDIS_URL);
    proxies.push(proxy);
    const a = await open(name, 'a');
    const b = await open(name, 'b', proxy.url);
    const onB = collect(b);
    const changes: boolean[] = [];
    b.onConnectionChange((connected) => void changes.push(connected));
    await proxy.close();
    await vi.waitFor(() => expect(changes).toEqual([false]), { timeout: 2000, interval: 5 });
    expect(b.connected()).toBe(false);
    // Published meanwhile: lost for b (the activity poll makes up for it), and a is not held up.
    a.publish(checked('during'));
    // Its own publishing fails at once rather than queueing for later.
    b.publish(checked('from b'));
    await proxy.open();
    await vi.waitFor(() => expect(changes).toEqual([false, true]), { timeout: 5000, interval: 10 });
    a.publish(checked('after'));
    await vi.waitFor(
      () => expect(onB.map((e) => (e as { monitorId: string }).monitorId)).toEqual(['from b', 'after']),
      { timeout: 2000, interval: 5 },
    );
  });
});
