import { describe, expect, it } from 'vitest';
import type { WardenEvent } from '../bus/events.js';
import type { RedisBus } from '../bus/redis-bus.js';
import { createLogger } from '../logger.js';
import type { MonitorActivity, Store } from '../store/index.js';
import { createActivityPoll } from './activity-poll.js';

/** A bus whose connection the test sets, recording what the poll delivers. */
function fakeBus() {
  let connected = true;
  const listeners = new Set<(connected: boolean) => void>();
  const delivered: WardenEvent[] = [];
  const bus = {
    deliverLocally: (event: WardenEvent) => void delivered.push(event),
    connected: () => connected,
    onConnectionChange(listener: (connected: boolean) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as RedisBus;
  return {
    bus,
    delivered,
    set(value: boolean) {
      connected = value;
      for (const listener of listeners) listener(value);
    },
  };
}

const row = (id: string, overrides: Partial<MonitorActivity> = {}): MonitorActivity => ({
  id,
  organizationId: 'org',
  state: 'up',
  lastCheckAt: 1000,
  lastResult: JSON.stringify({ ok: true }),
  ...overrides,
});

function setup() {
  const rows = new Map<string, MonitorActivity>([
    ['m1', row('m1')],
    ['m2', row('m2')],
  ]);
  const asked: string[][] = [];
  const store = {
    monitorStates: {
      async listActivity(ids: readonly string[]) {
        asked.push([...ids]);
        return ids.flatMap((id) => rows.get(id) ?? []);
      },
    },
  } as unknown as Store;
  const lines: { msg: string }[] = [];
  const logger = createLogger('info', {
    write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }),
  });
  const bus = fakeBus();
  const poll = createActivityPoll({
    store,
    bus: bus.bus,
    pages: { monitorsInMemory: () => ['m1', 'm2'] },
    clock: { now: () => 5000 },
    logger,
    everyMs: 60_000,
  });
  return { rows, asked, lines, bus, poll };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the activity poll (Redis away)', () => {
  it('does nothing while the bus is connected', async () => {
    const { asked, poll, lines } = setup();
    poll.start();
    await settle();
    expect(asked).toEqual([]);
    expect(lines).toEqual([]);
    await poll.stop();
  });

  it('on losing Redis, logs once and delivers every monitor on the pages in memory, then only what changed', async () => {
    const { rows, bus, poll, lines } = setup();
    poll.start();
    bus.set(false);
    bus.set(false);
    await settle();
    expect(lines.filter((l) => l.msg.startsWith('redis unreachable'))).toHaveLength(1);
    // The first poll of an outage covers the time before it: both monitors' pages are rebuilt.
    expect(bus.delivered.map((e) => [e.type, (e as { monitorId: string }).monitorId])).toEqual([
      ['monitor.checked', 'm1'],
      ['monitor.checked', 'm2'],
    ]);
    bus.delivered.length = 0;
    expect(await poll.poll()).toBe(0);
    rows.set('m2', row('m2', { state: 'down', lastCheckAt: 2000, lastResult: JSON.stringify({ ok: false }) }));
    expect(await poll.poll()).toBe(1);
    expect(bus.delivered).toEqual([
      {
        type: 'monitor.state',
        at: 5000,
        monitorId: 'm2',
        organizationId: 'org',
        previous: 'up',
        state: 'down',
        reason: null,
      },
      { type: 'monitor.checked', at: 5000, monitorId: 'm2', organizationId: 'org', ok: false },
    ]);
    await poll.stop();
  });

  it('on Redis back, polls once more for the gap, logs once, and stops polling', async () => {
    const { rows, bus, poll, lines, asked } = setup();
    poll.start();
    bus.set(false);
    await settle();
    bus.delivered.length = 0;
    rows.set('m1', row('m1', { lastCheckAt: 3000, lastResult: JSON.stringify({ ok: true, message: 'new' }) }));
    bus.set(true);
    await settle();
    expect(bus.delivered).toEqual([
      { type: 'monitor.checked', at: 5000, monitorId: 'm1', organizationId: 'org', ok: true },
    ]);
    expect(lines.filter((l) => l.msg.startsWith('redis reachable again'))).toHaveLength(1);
    const polls = asked.length;
    await settle();
    expect(asked).toHaveLength(polls);
    await poll.stop();
  });
});
