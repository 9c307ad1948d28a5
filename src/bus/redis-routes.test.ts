import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, redisAvailable, TcpProxy } from '../../test/cluster-harness.js';
import { connectRedis, type RedisConnections } from '../cluster/redis.js';
import { createLogger } from '../logger.js';
import { type Bus, createInProcessBus } from './bus.js';
import type { WardenEvent } from './events.js';
import { createRedisBus, type RedisBus } from './redis-bus.js';
import { organizationChannel } from './redis-routes.js';

const logger = createLogger('silent');
const checked = (organizationId: string, monitorId: string): WardenEvent => ({
  type: 'monitor.checked',
  at: 1,
  monitorId,
  organizationId,
  ok: true,
});
const pageChanged = (pageId: string): WardenEvent => ({ type: 'page.changed', at: 2, pageId });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!redisAvailable) console.warn('⚠ Redis is not reachable at 127.0.0.1:6379: the event routing tests are SKIPPED');

describe.skipIf(!redisAvailable)('routing events over Redis', () => {
  const opened: { bus: RedisBus; redis: RedisConnections }[] = [];
  const proxies: TcpProxy[] = [];
  afterEach(async () => {
    for (const { bus, redis } of opened.splice(0)) {
      await bus.close();
      await redis.close();
    }
    for (const proxy of proxies.splice(0)) await proxy.close();
  });

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
    return bus;
  }
  const channel = () => `test-${randomBytes(6).toString('hex')}:events`;
  const collect = (bus: Bus) => {
    const seen: string[] = [];
    bus.subscribe('monitor.checked', (event) => void seen.push(`${event.organizationId}/${event.monitorId}`));
    bus.subscribe('page.changed', (event) => void seen.push(`page ${event.pageId}`));
    return seen;
  };

  it('sends a monitor result only to the processes following its organization, and the rest to all', async () => {
    const name = channel();
    const [a, b, c] = [await open(name, 'a'), await open(name, 'b'), await open(name, 'c')];
    const [onA, onB, onC] = [collect(a), collect(b), collect(c)];
    expect(await b.follow('o1').ready(2000)).toBe(true);
    a.publish(checked('o1', 'm1'));
    a.publish(checked('o2', 'm2'));
    a.publish(pageChanged('p1'));
    // The publisher's own subscribers hear everything, at once.
    expect(onA).toEqual(['o1/m1', 'o2/m2', 'page p1']);
    await vi.waitFor(() => expect(onC).toEqual(['page p1']), { timeout: 2000, interval: 5 });
    await vi.waitFor(() => expect(onB).toEqual(['o1/m1', 'page p1']), { timeout: 2000, interval: 5 });
  });

  it('keeps an organization followed until its last interest is released', async () => {
    const name = channel();
    const [a, b] = [await open(name, 'a'), await open(name, 'b')];
    const onB = collect(b);
    const [page, hub] = [b.follow('o1'), b.follow('o1')];
    expect(await page.ready(2000)).toBe(true);
    expect(await hub.ready(2000)).toBe(true);
    page.release();
    page.release(); // twice is once
    a.publish(checked('o1', 'm1'));
    await vi.waitFor(() => expect(onB).toEqual(['o1/m1']), { timeout: 2000, interval: 5 });
    hub.release();
    expect(await hub.ready(10)).toBe(false);
    // Unsubscribed once Redis has the command; a broadcast after it arrives, the result before it never does.
    await sleep(50);
    a.publish(checked('o1', 'm2'));
    a.publish(pageChanged('p1'));
    await vi.waitFor(() => expect(onB).toEqual(['o1/m1', 'page p1']), { timeout: 2000, interval: 5 });
  });

  it('publishes the events of one turn as one message per channel', async () => {
    const name = channel();
    const a = await open(name, 'a');
    const spy = new Redis(REDIS_URL);
    const messages: string[] = [];
    try {
      await spy.subscribe(name, organizationChannel(name, 'o1'), organizationChannel(name, 'o2'));
      spy.on('message', (from: string, text: string) => {
        messages.push(
          `${from.slice(name.length) || 'all'}:${(JSON.parse(text) as { events: unknown[] }).events.length}`,
        );
      });
      for (let i = 0; i < 300; i++) a.publish(checked(i % 3 === 0 ? 'o2' : 'o1', `m${i}`));
      a.publish(pageChanged('p1'));
      await vi.waitFor(() => expect(messages).toHaveLength(3), { timeout: 2000, interval: 5 });
      expect(messages.sort()).toEqual([':org:o1:200', ':org:o2:100', 'all:1']);
    } finally {
      spy.disconnect();
    }
  });

  it('stops publishing an organization’s results while nobody follows it, and starts again once one process does', async () => {
    const name = channel();
    const a = await open(name, 'a');
    const watcher = new Redis(REDIS_URL);
    const published: string[] = [];
    try {
      const monitor = await watcher.monitor();
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'publish' && args[1]?.startsWith(name))
          published.push(args[1].slice(name.length) || 'all');
      });
      // The first result asks Redis, which answers that no one received it.
      a.publish(checked('o1', 'm1'));
      await vi.waitFor(() => expect(published).toEqual([':org:o1']), { timeout: 5000, interval: 5 });
      // Redis's answer (no receiver) reaches the publisher a moment after MONITOR shows the PUBLISH: room for a loaded
      // machine (with 100 ms here, and 2 s bounds below, a full run needed this test's retry).
      await sleep(500);
      a.publish(checked('o1', 'm2'));
      await sleep(20);
      a.publish(checked('o1', 'm3'));
      a.publish(pageChanged('p1'));
      await vi.waitFor(() => expect(published).toEqual([':org:o1', 'all']), { timeout: 5000, interval: 5 });
      // A process starts following: ready once Redis delivered its announcement to every process. The results skipped
      // lately (m2, m3) reach it when the publisher reads the announcement, and so does the next one (m4), even if it
      // is published before the publisher has read it (then held too): no result is lost in between.
      const b = await open(name, 'b');
      const onB = collect(b);
      expect(await b.follow('o1').ready(5000)).toBe(true);
      a.publish(checked('o1', 'm4'));
      await vi.waitFor(() => expect(onB).toEqual(['o1/m2', 'o1/m3', 'o1/m4']), { timeout: 5000, interval: 5 });
      expect(published.slice(0, 3)).toEqual([':org:o1', 'all', 'all']);
      expect(published.slice(3)).toContain(':org:o1');
    } finally {
      watcher.disconnect();
    }
  });

  it('answers not ready while Redis is away, and follows again when it is back', async () => {
    const name = channel();
    const proxy = await TcpProxy.toRedis(REDIS_URL);
    proxies.push(proxy);
    const a = await open(name, 'a');
    const b = await open(name, 'b', proxy.url);
    const onB = collect(b);
    await proxy.close();
    await vi.waitFor(() => expect(b.connected()).toBe(false), { timeout: 2000, interval: 5 });
    const following = b.follow('o1');
    const started = Date.now();
    expect(await following.ready(5000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
    await proxy.open();
    await vi.waitFor(() => expect(b.connected()).toBe(true), { timeout: 5000, interval: 10 });
    expect(await following.ready(5000)).toBe(true);
    a.publish(checked('o1', 'after'));
    await vi.waitFor(() => expect(onB).toEqual(['o1/after']), { timeout: 2000, interval: 5 });
  });
});

describe('following on one process', () => {
  it('is ready at once: every event is published here', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    bus.subscribe('monitor.checked', (event) => void seen.push(event.monitorId));
    expect(await bus.follow('o1').ready(0)).toBe(true);
    bus.publish(checked('o2', 'm1'));
    expect(seen).toEqual(['m1']);
  });
});
