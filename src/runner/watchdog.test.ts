import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { MonitorStateChanged } from '../bus/events.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import type { Store } from '../store/index.js';
import { createIngest, type Ingest } from './ingest.js';
import { createWatchdog, type Watchdog } from './watchdog.js';

const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab }, { key: attic, name: Attic }]
monitors:
  - { key: backup, name: Backup, type: heartbeat, config: { graceSec: 60 } }
  - { key: fast, name: Fast, type: tcp, runOn: relay, relay: lab, intervalSec: 20, config: { host: 10.0.0.1, port: 1 } }
  - { key: slow, name: Slow, type: tcp, runOn: relay, relay: lab, intervalSec: 300, config: { host: 10.0.0.2, port: 1 } }
  - { key: attic, name: Attic, type: tcp, runOn: relay, relay: attic, intervalSec: 60, config: { host: 10.0.1.1, port: 1 } }
  - { key: web, name: Web, type: tcp, intervalSec: 30, config: { host: 127.0.0.1, port: 1 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`watchdog on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ingest: Ingest;
    let watchdog: Watchdog;
    let now: number;
    let m: Record<string, Monitor>;
    let events: MonitorStateChanged[];
    const t0 = Date.UTC(2026, 10, 20, 12, 0, 0);

    const clock = { now: () => now };
    const logger = createLogger('silent');
    /** A fresh ingest and watchdog over the test's store (or one standing in for it), as after a restart. */
    const deps = (store: Store = opened.store) => {
      const bus = createInProcessBus();
      bus.subscribe('monitor.state', (e) => events.push(e));
      const ingestFor = createIngest({ store, bus, clock, logger });
      return { ingest: ingestFor, watchdog: createWatchdog({ store, ingest: ingestFor, clock, logger }) };
    };

    beforeEach(async () => {
      opened = await dialect.open();
      now = t0;
      events = [];
      m = (await seed(opened.store, CONFIG, now)).monitors;
      ({ ingest, watchdog } = deps());
    });
    afterEach(async () => {
      await watchdog.stop();
      await ingest.close();
      await opened.cleanup();
    });

    const state = async (key: string) => (await opened.store.monitors.findById((m[key] as Monitor).id))?.state;
    const ping = (ok = true) => ingest.record({ monitorId: (m.backup as Monitor).id, ok, source: 'push' });
    const relayResult = (key: string) =>
      ingest.record({ monitorId: (m[key] as Monitor).id, ok: true, source: 'relay' });
    const seen = async (relay: string) => {
      const r = await opened.store.relays.findByKey((m.fast as Monitor).organizationId, relay);
      await opened.store.relays.touch(r?.id as string, now);
    };
    const history = (key: string) =>
      opened.store.checks.list((m[key] as Monitor).id, { from: 0, to: now + 1, limit: 10 });

    describe('heartbeats', () => {
      it('stay up while pings come within graceSec, and go down at the deadline when one is missed', async () => {
        await ping();
        now += 59_000;
        expect(await watchdog.sweep()).toBe(0);
        await ping();
        now += 60_000;
        expect(await watchdog.sweep()).toBe(0);
        expect(await state('backup')).toBe('up');
        now += 1;
        expect(await watchdog.sweep()).toBe(1);
        expect(await state('backup')).toBe('down');
        const [missed] = await history('backup');
        expect(missed).toMatchObject({
          ok: false,
          error: 'no heartbeat within 60 s',
          checkedAt: t0 + 59_000 + 60_000,
          source: 'push',
        });
        expect(events.at(-1)).toMatchObject({ previous: 'up', state: 'down' });
      });

      it('records one missed ping per grace period of silence, and come back up on the next ping', async () => {
        await ping();
        now += 60_001;
        await watchdog.sweep();
        expect(await watchdog.sweep()).toBe(0);
        now += 60_000;
        expect(await watchdog.sweep()).toBe(1);
        const checks = await history('backup');
        expect(checks.map((c) => c.ok)).toEqual([false, false, true]);
        await ping();
        expect(await state('backup')).toBe('up');
      });

      it('go down once their grace has passed since they were created, when the first ping never comes', async () => {
        now += 60_000;
        expect(await watchdog.sweep()).toBe(0);
        expect(await state('backup')).toBe('unknown');
        now += 1;
        expect(await watchdog.sweep()).toBe(1);
        expect(await state('backup')).toBe('down');
        const [missed] = await history('backup');
        expect(missed).toMatchObject({
          ok: false,
          error: 'no first heartbeat within 60 s',
          checkedAt: t0 + 60_000,
          source: 'push',
        });
        expect(events.at(-1)).toMatchObject({ previous: 'unknown', state: 'down' });
        // Then once per grace period, like any silent heartbeat; the first ping brings it up.
        now += 60_000;
        expect(await watchdog.sweep()).toBe(1);
        expect(await watchdog.sweep()).toBe(0);
        expect((await history('backup')).map((c) => c.error)).toEqual([
          'no heartbeat within 60 s',
          'no first heartbeat within 60 s',
        ]);
        await ping();
        expect(await state('backup')).toBe('up');
      });

      it('give a resumed monitor its whole grace before judging it, however old its last ping', async () => {
        await ping();
        await seed(opened.store, CONFIG.replace('type: heartbeat,', 'type: heartbeat, enabled: false,'), now);
        now += 24 * 3600_000;
        expect(await watchdog.sweep()).toBe(0);
        await seed(opened.store, CONFIG, now);
        const resumedAt = now;
        now += 60_000;
        expect(await watchdog.sweep()).toBe(0);
        expect(await state('backup')).toBe('up');
        now += 1;
        expect(await watchdog.sweep()).toBe(1);
        expect(await state('backup')).toBe('down');
        expect((await history('backup'))[0]).toMatchObject({
          error: 'no heartbeat within 60 s',
          checkedAt: resumedAt + 60_000,
        });
      });

      it('never go down while paused, pinged or not', async () => {
        await seed(opened.store, CONFIG.replace('type: heartbeat,', 'type: heartbeat, enabled: false,'), now);
        now += 24 * 3600_000;
        expect(await watchdog.sweep()).toBe(0);
        expect(await history('backup')).toEqual([]);
      });

      it('keep their grace timer across a restart: a new watchdog computes the deadline from the stored last ping', async () => {
        await ping();
        now += 30_000;
        await watchdog.stop();
        await ingest.close();
        ({ ingest, watchdog } = deps());
        expect(await watchdog.sweep()).toBe(0);
        now += 30_001;
        expect(await watchdog.sweep()).toBe(1);
        expect(await state('backup')).toBe('down');
      });
    });

    /** The heartbeat out of the way (a week's grace) for the tests of other silences, which let hours pass. */
    const quietHeartbeat = () => seed(opened.store, CONFIG.replace('graceSec: 60', 'graceSec: 604800'), now);

    describe('relays', () => {
      beforeEach(quietHeartbeat);
      it('mark all monitors of a relay silent for three of its shortest intervals unknown ("relay offline")', async () => {
        await seen('lab');
        await relayResult('fast');
        await relayResult('slow');
        expect(await state('fast')).toBe('up');
        now += 3 * 20_000;
        expect(await watchdog.sweep()).toBe(0);
        now += 1;
        // The slow monitor's own staleness is 15 minutes away: it goes unknown with its relay.
        expect(await watchdog.sweep()).toBe(2);
        expect(await state('fast')).toBe('unknown');
        expect(await state('slow')).toBe('unknown');
        expect(events.filter((e) => e.state === 'unknown').map((e) => e.reason)).toEqual([
          'relay offline',
          'relay offline',
        ]);
      });

      it('leave a relay heard from recently alone, while a monitor without results goes stale on its own', async () => {
        await relayResult('fast');
        await relayResult('slow');
        for (let i = 0; i < 4; i++) {
          now += 20_000;
          await seen('lab');
          await relayResult('slow');
          await watchdog.sweep();
        }
        expect(await state('slow')).toBe('up');
        expect(await state('fast')).toBe('unknown');
        expect(events.filter((e) => e.state === 'unknown').map((e) => e.reason)).toEqual(['no result for 3 intervals']);
      });

      it('judge each relay by its own monitors', async () => {
        await seen('lab');
        await seen('attic');
        await relayResult('fast');
        await relayResult('attic');
        now += 61_000;
        await seen('attic');
        await relayResult('attic');
        await watchdog.sweep();
        expect(await state('fast')).toBe('unknown');
        expect(await state('attic')).toBe('up');
      });

      it('let a result that arrives after the relay went offline bring the monitor back', async () => {
        await seen('lab');
        await relayResult('fast');
        now += 61_000;
        await watchdog.sweep();
        expect(await state('fast')).toBe('unknown');
        await seen('lab');
        await relayResult('fast');
        expect(await state('fast')).toBe('up');
      });
    });

    it('marks an edge monitor without results for three intervals unknown', async () => {
      await quietHeartbeat();
      await ingest.record({ monitorId: (m.web as Monitor).id, ok: true, source: 'edge' });
      now += 90_001;
      expect(await watchdog.sweep()).toBe(1);
      expect(await state('web')).toBe('unknown');
    });

    describe('its findings go through ingest as silences', () => {
      beforeEach(quietHeartbeat);
      const edgeResult = () => ingest.record({ monitorId: (m.web as Monitor).id, ok: true, source: 'edge' });

      it('move a silent monitor to unknown with one monitor.state event, adding nothing to its history', async () => {
        await edgeResult();
        now += 90_001;
        events = [];
        expect(await watchdog.sweep()).toBe(1);
        expect(events).toEqual([
          {
            type: 'monitor.state',
            at: now,
            monitorId: (m.web as Monitor).id,
            organizationId: (m.web as Monitor).organizationId,
            previous: 'up',
            state: 'unknown',
            reason: 'no result for 3 intervals',
          },
        ]);
        expect(await opened.store.monitors.findById((m.web as Monitor).id)).toMatchObject({
          state: 'unknown',
          stateSince: now,
          failureStreak: 0,
          lastCheckAt: t0,
        });
        expect(await history('web')).toHaveLength(1);
        // Still silent at the next sweep: already unknown, nothing more to say.
        expect(await watchdog.sweep()).toBe(0);
        expect(events).toHaveLength(1);
      });

      it('let a result that arrived after the watchdog looked win: the silence changes nothing', async () => {
        await edgeResult();
        now += 90_001;
        // The result lands between the watchdog's read of the silent monitors and its silence reaching ingest.
        const schedule = opened.store.schedule;
        const racing: Store = {
          ...opened.store,
          schedule: {
            ...schedule,
            listSilent: async (at, intervals) => schedule.listSilent(at, intervals).finally(edgeResult),
          },
        };
        await watchdog.stop();
        await ingest.close();
        events = [];
        ({ ingest, watchdog } = deps(racing));
        expect(await watchdog.sweep()).toBe(0);
        expect(await opened.store.monitors.findById((m.web as Monitor).id)).toMatchObject({
          state: 'up',
          lastCheckAt: now,
        });
        expect(events).toEqual([]);
        expect(await history('web')).toHaveLength(2);
      });
    });
  });
}
