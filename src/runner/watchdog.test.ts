import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { MonitorStateChanged } from '../bus/events.js';
import { createLogger } from '../logger.js';
import { listChecks } from '../store/checks.js';
import { findMonitorById, type Monitor } from '../store/monitors.js';
import { findRelayByKey, touchRelay } from '../store/relays.js';
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

    const deps = () => {
      const bus = createInProcessBus();
      bus.subscribe('monitor.state', (e) => events.push(e));
      const clock = { now: () => now };
      const logger = createLogger('silent');
      const ingestFor = createIngest({ db: opened.store.db, bus, clock, logger });
      return { bus, clock, logger, ingest: ingestFor, watchdog: createWatchdog({ db: opened.store.db, ingest: ingestFor, bus, clock, logger }) };
    };

    beforeEach(async () => {
      opened = await dialect.open();
      now = t0;
      events = [];
      m = (await seed(opened.store.db, CONFIG, now)).monitors;
      ({ ingest, watchdog } = deps());
    });
    afterEach(async () => {
      await watchdog.stop();
      await ingest.close();
      await opened.cleanup();
    });

    const state = async (key: string) => (await findMonitorById(opened.store.db, (m[key] as Monitor).id))?.state;
    const ping = (ok = true) => ingest.record({ monitorId: (m.backup as Monitor).id, ok, source: 'push' });
    const relayResult = (key: string) => ingest.record({ monitorId: (m[key] as Monitor).id, ok: true, source: 'relay' });
    const seen = async (relay: string) => {
      const r = await findRelayByKey(opened.store.db, (m.fast as Monitor).organizationId, relay);
      await touchRelay(opened.store.db, r?.id as string, now);
    };

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
        const [missed] = await listChecks(opened.store.db, (m.backup as Monitor).id, 0, now + 1, 10);
        expect(missed).toMatchObject({ ok: false, error: 'no heartbeat within 60 s', checkedAt: t0 + 59_000 + 60_000, source: 'push' });
        expect(events.at(-1)).toMatchObject({ previous: 'up', state: 'down' });
      });

      it('records one missed ping per grace period of silence, and come back up on the next ping', async () => {
        await ping();
        now += 60_001;
        await watchdog.sweep();
        expect(await watchdog.sweep()).toBe(0);
        now += 60_000;
        expect(await watchdog.sweep()).toBe(1);
        const checks = await listChecks(opened.store.db, (m.backup as Monitor).id, 0, now + 1, 10);
        expect(checks.map((c) => c.ok)).toEqual([false, false, true]);
        await ping();
        expect(await state('backup')).toBe('up');
      });

      it('never go down before their first ping', async () => {
        now += 24 * 3600_000;
        await watchdog.sweep();
        expect(await state('backup')).toBe('unknown');
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

    describe('relays', () => {
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
        expect(events.filter((e) => e.state === 'unknown').map((e) => e.reason)).toEqual(['relay offline', 'relay offline']);
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
      await ingest.record({ monitorId: (m.web as Monitor).id, ok: true, source: 'edge' });
      now += 90_001;
      expect(await watchdog.sweep()).toBe(1);
      expect(await state('web')).toBe('unknown');
    });
  });
}
