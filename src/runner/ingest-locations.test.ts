// Ingest of a monitor at several locations, on both databases: each location's result kept and its checks stored with
// their location; the state decided by quorum; the monitor's rollup counting the decided state and the per-location
// rollup each location's own results; a late result of one location not undoing another's newer one; the edge and
// relay schedules listing the monitors that name them. A single-location monitor keeps today's rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { WardenEvent } from '../bus/events.js';
import { HOUR_MS } from '../domain/check.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import { createIngest, type Ingest, type IngestInput } from './ingest.js';

const CONFIG = `
organization: { name: Test }
relays:
  - { key: fra, name: Frankfurt }
  - { key: nyc, name: New York }
monitors:
  - { key: web, name: Web, type: tcp, retries: 1, locations: [fra, nyc], config: { host: 10.0.0.1, port: 1 } }
  - { key: api, name: API, type: tcp, runOn: relay, relay: fra, retries: 0, locations: [edge], quorum: 1, config: { host: 10.0.0.2, port: 1 } }
  - { key: solo, name: Solo, type: tcp, retries: 1, config: { host: 10.0.0.3, port: 1 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`ingest at several locations on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ingest: Ingest;
    let events: WardenEvent[];
    let now: number;
    let m: Record<string, Monitor>;
    let relays: Record<string, string>;

    beforeEach(async () => {
      opened = await dialect.open();
      const bus = createInProcessBus();
      events = [];
      bus.subscribe('monitor.state', (e) => events.push(e));
      now = Date.UTC(2026, 10, 20, 12, 0, 0);
      ingest = createIngest({ store: opened.store, bus, clock: { now: () => now }, logger: createLogger('silent') });
      const seeded = await seed(opened.store, CONFIG, now);
      m = seeded.monitors as Record<string, Monitor>;
      const list = await opened.store.relays.list(m.web?.organizationId as string);
      relays = Object.fromEntries(list.map((r) => [r.key, r.id]));
    });
    afterEach(async () => {
      await ingest.close();
      await opened.cleanup();
    });

    const at = (location: 'edge' | 'fra' | 'nyc', monitor: string, ok: boolean, extra: Partial<IngestInput> = {}) =>
      ingest.record({
        monitorId: m[monitor]?.id as string,
        ok,
        latencyMs: ok ? 50 : null,
        error: ok ? null : 'refused',
        checkedAt: now,
        ...(location === 'edge'
          ? { source: 'edge' as const }
          : { source: 'relay' as const, location: relays[location], locationLabel: location }),
        ...extra,
      });
    const stateOf = async (key: string) => (await opened.store.monitors.findById(m[key]?.id as string))?.state;

    it('decides by a majority of the locations, each with its retries, and names them', async () => {
      await Promise.all([at('edge', 'web', true), at('fra', 'web', true), at('nyc', 'web', true)]);
      expect(await stateOf('web')).toBe('up');
      now += 60_000;
      // retries: 1: one failure at a location does not count it down yet.
      await at('edge', 'web', false);
      await at('fra', 'web', false);
      expect(await stateOf('web')).toBe('up');
      now += 60_000;
      await at('edge', 'web', false);
      expect(await stateOf('web')).toBe('up');
      await at('fra', 'web', false);
      expect(await stateOf('web')).toBe('down');
      expect(events.at(-1)).toMatchObject({ state: 'down', reason: 'down from edge, fra (2 of 3)' });
      const stored = await opened.store.monitors.findById(m.web?.id as string);
      expect(Object.keys(stored?.locationResults ?? {}).sort()).toEqual(['edge', relays.fra, relays.nyc].sort());
      expect(stored?.failureStreak).toBe(2);
    });

    it('stores each check with its location, and rolls up the decided state and each location apart', async () => {
      await at('edge', 'web', true);
      await at('fra', 'web', false, { latencyMs: 300 });
      await at('nyc', 'web', true, { latencyMs: 90 });
      const checks = await opened.store.checks.list(m.web?.id as string, { from: 0, to: now + 1, limit: 10 });
      expect(checks.map((c) => c.location).sort()).toEqual(['edge', relays.fra, relays.nyc].sort());
      const [monitorBucket] = await opened.store.checks.buckets('hour', [m.web?.id as string], 0, now + HOUR_MS);
      // fra failed, the monitor stayed up: its rollup counts three checks up.
      expect(monitorBucket).toMatchObject({ count: 3, upCount: 3 });
      const perLocation = await opened.store.checks.locationBuckets(m.web?.id as string, 0, now + HOUR_MS);
      expect(perLocation.map((b) => [b.location, b.count, b.upCount, b.latencySum]).sort()).toEqual(
        [
          ['edge', 1, 1, 50],
          [relays.fra, 1, 0, 300],
          [relays.nyc, 1, 1, 90],
        ].sort(),
      );
    });

    it("moves nothing with a location's late result, but keeps it in history", async () => {
      await at('edge', 'api', true);
      await at('fra', 'api', true);
      now += 60_000;
      await at('edge', 'api', true);
      // fra's result of 30 s ago arrives now (a relay's replay): older than fra's latest? No, newer: it counts.
      await at('fra', 'api', false, { checkedAt: now - 30_000 });
      expect(await stateOf('api')).toBe('down');
      // An older one of fra's than its latest moves nothing.
      await at('fra', 'api', true, { checkedAt: now - 45_000 });
      expect(await stateOf('api')).toBe('down');
      expect(await opened.store.checks.list(m.api?.id as string, { from: 0, to: now + 1, limit: 10 })).toHaveLength(5);
    });

    it('keeps the single-location rules for a monitor without locations', async () => {
      await at('edge', 'solo', false);
      expect(await stateOf('solo')).toBe('unknown');
      await at('edge', 'solo', false);
      expect(await stateOf('solo')).toBe('down');
      const [check] = await opened.store.checks.list(m.solo?.id as string, { from: 0, to: now + 1, limit: 1 });
      expect(check?.location).toBeUndefined();
      expect(await opened.store.checks.locationBuckets(m.solo?.id as string, 0, now + HOUR_MS)).toEqual([]);
    });

    it('lists the monitors a location runs: the edge those naming it, a relay those naming it', async () => {
      const edge = (await opened.store.schedule.listVersions('edge')).map((v) => v.id).sort();
      expect(edge).toEqual([m.web?.id, m.api?.id, m.solo?.id].sort());
      expect([...(await opened.store.schedule.idsRunningOnRelay(relays.fra as string))].sort()).toEqual(
        [m.web?.id, m.api?.id].sort(),
      );
      expect([...(await opened.store.schedule.idsRunningOnRelay(relays.nyc as string))]).toEqual([m.web?.id]);
      // The relay watchdog's list leaves out a monitor that other locations still report on.
      await at('fra', 'api', true);
      expect(await stateOf('api')).toBe('up');
      expect(await opened.store.schedule.listKnownOnRelay(relays.fra as string)).toEqual([]);
    });
  });
}
