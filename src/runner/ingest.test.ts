import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import { DAY_MS, HOUR_MS } from '../domain/check.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import { createIngest, type Ingest } from './ingest.js';

const CONFIG = `
organization: { name: Test }
monitors:
  - { key: mc, name: MC, type: tcp, retries: 1, degradedLatencyMs: 500, config: { host: 127.0.0.1, port: 1 } }
  - { key: hb, name: HB, type: heartbeat }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`ingest on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ingest: Ingest;
    let events: WardenEvent[];
    let now: number;
    let mc: Monitor;
    let hb: Monitor;

    beforeEach(async () => {
      opened = await dialect.open();
      const bus = createInProcessBus();
      events = [];
      bus.subscribe('monitor.state', (e) => events.push(e));
      now = Date.UTC(2026, 10, 20, 12, 0, 0);
      ingest = createIngest({ store: opened.store, bus, clock: { now: () => now }, logger: createLogger('silent') });
      const seeded = await seed(opened.store, CONFIG, now);
      mc = seeded.monitors.mc as Monitor;
      hb = seeded.monitors.hb as Monitor;
    });
    afterEach(async () => {
      await ingest.close();
      await opened.cleanup();
    });

    it("stores a hostile server's NUL characters as U+FFFD instead of failing the commit for everyone in it", async () => {
      const [hostile, other] = await ingest.recordMany([
        {
          monitorId: mc.id,
          ok: true,
          message: 'motd\u0000evil',
          error: null,
          data: { motd: 'a\u0000b' },
          source: 'edge',
        },
        { monitorId: hb.id, ok: false, error: 'late\u0000', source: 'push' },
      ]);
      expect(hostile).toMatchObject({ stored: true });
      expect(other).toMatchObject({ stored: true });
      const [check] = await opened.store.checks.list(mc.id, { from: 0, to: now + 1, limit: 10 });
      expect(check).toMatchObject({ message: 'motd\uFFFDevil', data: { motd: 'a\u0000b' } });
      expect((await opened.store.monitors.findById(hb.id))?.lastResult).toMatchObject({ error: 'late\uFFFD' });
    });

    it('stores the check, updates the latest result, and derives the state with retries', async () => {
      const a = await ingest.record({
        monitorId: mc.id,
        ok: true,
        latencyMs: 40,
        data: { players: 3 },
        source: 'edge',
      });
      expect(a).toMatchObject({ stored: true, state: 'up' });
      now += 30_000;
      expect(
        await ingest.record({ monitorId: mc.id, ok: false, error: 'connection refused', source: 'edge' }),
      ).toMatchObject({ state: 'up' });
      now += 30_000;
      expect(
        await ingest.record({ monitorId: mc.id, ok: false, error: 'connection refused', source: 'edge' }),
      ).toMatchObject({ state: 'down' });
      const stored = await opened.store.monitors.findById(mc.id);
      expect(stored).toMatchObject({ state: 'down', stateSince: now, failureStreak: 2, lastCheckAt: now });
      expect(stored?.lastResult).toMatchObject({
        ok: false,
        error: 'connection refused',
        source: 'edge',
        checkedAt: now,
      });
      expect(events.map((e) => e.type === 'monitor.state' && [e.previous, e.state])).toEqual([
        ['unknown', 'up'],
        ['up', 'down'],
      ]);
      const checks = await opened.store.checks.list(mc.id, { from: 0, to: now + 1, limit: 10 });
      expect(checks.map((c) => c.ok)).toEqual([false, false, true]);
      expect(checks[2]?.data).toEqual({ players: 3 });
    });

    it('keeps hourly and daily buckets: counts, latency min/avg/max, players avg/max, degraded', async () => {
      await ingest.recordMany([
        { monitorId: mc.id, ok: true, latencyMs: 100, data: { players: 10 }, source: 'edge', checkedAt: now },
        { monitorId: mc.id, ok: true, latencyMs: 700, data: { players: 20 }, source: 'edge', checkedAt: now + 1000 },
        { monitorId: mc.id, ok: false, source: 'edge', checkedAt: now + 2000 },
        { monitorId: mc.id, ok: true, latencyMs: 40, source: 'edge', checkedAt: now + HOUR_MS },
      ]);
      const hourly = await opened.store.checks.buckets('hour', [mc.id], 0, now + DAY_MS);
      expect(hourly).toHaveLength(2);
      expect(hourly[0]).toMatchObject({
        start: now,
        count: 3,
        upCount: 2,
        degradedCount: 1,
        latencyMin: 100,
        latencyMax: 700,
        latencyAvg: 400,
        playersAvg: 15,
        playersMax: 20,
      });
      expect(hourly[1]).toMatchObject({ count: 1, upCount: 1, latencyMin: 40 });
      const daily = await opened.store.checks.buckets('day', [mc.id], 0, now + DAY_MS);
      expect(daily).toEqual([
        expect.objectContaining({
          start: Date.UTC(2026, 10, 20),
          count: 4,
          upCount: 3,
          latencyMin: 40,
          latencyMax: 700,
          playersMax: 20,
        }),
      ]);
      // A second batch merges into the same buckets.
      await ingest.record({
        monitorId: mc.id,
        ok: true,
        latencyMs: 5,
        data: { players: 50 },
        source: 'edge',
        checkedAt: now + 5000,
      });
      const merged = await opened.store.checks.buckets('hour', [mc.id], now, now + 1);
      expect(merged[0]).toMatchObject({ count: 4, latencyMin: 5, latencyMax: 700, playersMax: 50 });
    });

    it('stores a replayed relay result once', async () => {
      const input = {
        monitorId: mc.id,
        ok: true,
        latencyMs: 10,
        source: 'relay' as const,
        resultId: 'r-1',
        checkedAt: now,
      };
      expect(await ingest.record(input)).toMatchObject({ stored: true });
      expect(await ingest.record(input)).toEqual({ stored: false, monitorId: mc.id, reason: 'duplicate' });
      const [both1, both2] = await ingest.recordMany([
        { ...input, resultId: 'r-2' },
        { ...input, resultId: 'r-2' },
      ]);
      expect([both1?.stored, both2?.stored]).toEqual([true, false]);
      expect(await opened.store.checks.list(mc.id, { from: 0, to: now + 1, limit: 10 })).toHaveLength(2);
      const [bucket] = await opened.store.checks.buckets('hour', [mc.id], 0, now + DAY_MS);
      expect(bucket?.count).toBe(2);
    });

    it('puts a late result in history without moving the current state', async () => {
      await ingest.record({ monitorId: mc.id, ok: true, latencyMs: 10, source: 'relay', checkedAt: now });
      const late = await ingest.record({ monitorId: mc.id, ok: false, source: 'relay', checkedAt: now - 60_000 });
      expect(late).toMatchObject({ stored: true, state: 'up' });
      const stored = await opened.store.monitors.findById(mc.id);
      expect(stored).toMatchObject({ state: 'up', failureStreak: 0, lastCheckAt: now });
    });

    it('a heartbeat reporting down is down at once', async () => {
      await ingest.record({ monitorId: hb.id, ok: true, source: 'push' });
      expect(
        await ingest.record({ monitorId: hb.id, ok: false, message: 'backup failed', source: 'push' }),
      ).toMatchObject({ state: 'down' });
    });

    it('answers unknown monitors without storing anything', async () => {
      expect(await ingest.record({ monitorId: 'mon_nope', ok: true, source: 'edge' })).toEqual({
        stored: false,
        monitorId: 'mon_nope',
        reason: 'unknown monitor',
      });
    });

    it('commits many concurrent results in few transactions, all durable when they resolve', async () => {
      const transactions = vi.spyOn(opened.store, 'transaction');
      const inputs = Array.from({ length: 3000 }, (_, i) => ({
        monitorId: i % 2 ? mc.id : hb.id,
        ok: true,
        latencyMs: i % 100,
        source: 'edge' as const,
        checkedAt: now + i,
      }));
      const outcomes = await Promise.all(inputs.map((i) => ingest.record(i)));
      expect(outcomes.every((o) => o.stored)).toBe(true);
      expect(transactions.mock.calls.length).toBeLessThanOrEqual(3);
      const stored = await Promise.all(
        [mc, hb].map((m) => opened.store.checks.list(m.id, { from: 0, to: now + 3000, limit: 3000 })),
      );
      expect(stored.map((checks) => checks.length)).toEqual([1500, 1500]);
    });

    it('moves a monitor to unknown on a silence, unless a newer result arrived since the watchdog looked', async () => {
      await ingest.record({ monitorId: mc.id, ok: true, latencyMs: 10, source: 'relay', checkedAt: now });
      const looked = now;
      now += 30_000;
      await ingest.record({ monitorId: mc.id, ok: true, latencyMs: 10, source: 'relay', checkedAt: now });
      const silence = { kind: 'silence' as const, monitorId: mc.id, reason: 'relay offline' };
      expect(await ingest.record({ ...silence, lastCheckAt: looked })).toEqual({
        stored: false,
        monitorId: mc.id,
        reason: 'superseded',
      });
      expect(await opened.store.monitors.findById(mc.id)).toMatchObject({ state: 'up', lastCheckAt: now });
      now += 90_000;
      expect(await ingest.record({ ...silence, lastCheckAt: now - 90_000 })).toEqual({
        stored: true,
        monitorId: mc.id,
        state: 'unknown',
        checkedAt: now,
      });
      expect(await ingest.record({ ...silence, lastCheckAt: now - 90_000 })).toEqual({
        stored: false,
        monitorId: mc.id,
        reason: 'superseded',
      });
      expect(await opened.store.monitors.findById(mc.id)).toMatchObject({
        state: 'unknown',
        stateSince: now,
        failureStreak: 0,
        lastCheckAt: now - 90_000,
      });
      expect(events.map((e) => e.type === 'monitor.state' && [e.previous, e.state, e.reason])).toEqual([
        ['unknown', 'up', null],
        ['up', 'unknown', 'relay offline'],
      ]);
      // A silence adds nothing to history.
      expect(await opened.store.checks.list(mc.id, { from: 0, to: now + 1, limit: 10 })).toHaveLength(2);
    });
  });
}
