// Ingest records each state change it derives, in the same commit: exactly the transitions, with why, on every dialect.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { createInProcessBus } from '../bus/bus.js';
import type { Monitor } from '../domain/monitor.js';
import { createLogger } from '../logger.js';
import { createIngest, type Ingest } from './ingest.js';

const CONFIG = `
organization: { name: Test }
monitors:
  - { key: mc, name: MC, type: tcp, retries: 1, degradedLatencyMs: 500, config: { host: 127.0.0.1, port: 1 } }
  - { key: web, name: Web, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 2 } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`ingest's state changes on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ingest: Ingest;
    let now: number;
    let mc: Monitor;
    let web: Monitor;
    const history = async (monitor: Monitor) =>
      (await opened.store.monitorStates.listChanges(monitor.id, { limit: 50 }))
        .reverse()
        .map(({ at, from, to, message }) => ({ at, from, to, message }));

    beforeEach(async () => {
      opened = await dialect.open();
      now = Date.UTC(2026, 10, 20, 12, 0, 0);
      ingest = createIngest({
        store: opened.store,
        bus: createInProcessBus(),
        clock: { now: () => now },
        logger: createLogger('silent'),
      });
      const seeded = await seed(opened.store, CONFIG, now);
      mc = seeded.monitors.mc as Monitor;
      web = seeded.monitors.web as Monitor;
    });
    afterEach(async () => {
      await ingest.close();
      await opened.cleanup();
    });

    it('writes exactly the transitions of an up, down, up, degraded sequence, not one per check', async () => {
      const at = (s: number) => now + s * 1000;
      const results: [number, boolean, number | null, string][] = [
        [0, true, 40, '3 players'],
        [60, true, 42, '3 players'],
        [120, false, null, 'connection refused'], // tolerated: retries 1
        [180, false, null, 'timed out'], // down
        [240, false, null, 'timed out'],
        [300, true, 38, 'back with 5 players'], // up
        [360, true, 900, '5 players'], // degraded: slower than 500 ms
        [420, true, 30, '6 players'], // up
      ];
      for (const [s, ok, latencyMs, text] of results)
        await ingest.record({
          monitorId: mc.id,
          ok,
          latencyMs,
          message: ok ? text : null,
          error: ok ? null : text,
          checkedAt: at(s),
          source: 'edge',
        });
      expect(await history(mc)).toEqual([
        { at: at(0), from: 'unknown', to: 'up', message: '3 players' },
        { at: at(180), from: 'up', to: 'down', message: 'timed out' },
        { at: at(300), from: 'down', to: 'up', message: 'back with 5 players' },
        { at: at(360), from: 'up', to: 'degraded', message: 'slower than 500 ms (900 ms)' },
        { at: at(420), from: 'degraded', to: 'up', message: '6 players' },
      ]);
      // A late result goes into the checks, not the state history.
      await ingest.record({ monitorId: mc.id, ok: false, error: 'late', checkedAt: at(10), source: 'relay' });
      expect(await history(mc)).toHaveLength(5);
    });

    it('records several changes of one monitor in a single commit, and a silence as unknown', async () => {
      const outcomes = await ingest.recordMany([
        { monitorId: web.id, ok: false, error: 'refused', checkedAt: now, source: 'edge' },
        { monitorId: web.id, ok: true, message: 'open', checkedAt: now + 1000, source: 'edge' },
        {
          monitorId: web.id,
          ok: true,
          degraded: true,
          message: 'slow handshake',
          checkedAt: now + 2000,
          source: 'edge',
        },
        { monitorId: mc.id, ok: true, latencyMs: 10, checkedAt: now, source: 'edge' },
      ]);
      expect(outcomes.map((o) => o.stored && o.state)).toEqual(['down', 'up', 'degraded', 'up']);
      now += 600_000;
      await ingest.record({
        kind: 'silence',
        monitorId: web.id,
        lastCheckAt: now - 600_000 + 2000,
        reason: 'no result for 3 intervals',
      });
      expect((await history(web)).map(({ from, to, message }) => [from, to, message])).toEqual([
        ['unknown', 'down', 'refused'],
        ['down', 'up', 'open'],
        ['up', 'degraded', 'slow handshake'],
        ['degraded', 'unknown', 'no result for 3 intervals'],
      ]);
      expect(await history(mc)).toEqual([{ at: now - 600_000, from: 'unknown', to: 'up', message: null }]);
    });

    it('records nothing for a replayed relay result', async () => {
      await ingest.record({
        monitorId: web.id,
        ok: false,
        error: 'refused',
        resultId: 'r1',
        checkedAt: now,
        source: 'relay',
      });
      const replayed = await ingest.record({
        monitorId: web.id,
        ok: false,
        error: 'refused',
        resultId: 'r1',
        checkedAt: now,
        source: 'relay',
      });
      expect(replayed).toMatchObject({ stored: false, reason: 'duplicate' });
      expect(await history(web)).toHaveLength(1);
    });

    it('commits the state with its change or neither', async () => {
      // The change cannot be written: the state and the check it came from are not stored either.
      const failing = {
        ...opened.store,
        transaction: <T>(work: (tx: typeof opened.store) => Promise<T>) =>
          opened.store.transaction((tx) =>
            work({
              ...tx,
              monitorStates: { ...tx.monitorStates, appendChanges: () => Promise.reject(new Error('disk full')) },
            }),
          ),
      };
      const broken = createIngest({
        store: failing,
        bus: createInProcessBus(),
        clock: { now: () => now },
        logger: createLogger('silent'),
      });
      await expect(
        broken.record({ monitorId: web.id, ok: true, message: 'open', checkedAt: now, source: 'edge' }),
      ).rejects.toThrow('disk full');
      await broken.close();
      expect(await opened.store.monitors.findById(web.id)).toMatchObject({ state: 'unknown', lastCheckAt: null });
      expect(await opened.store.checks.list(web.id, { from: 0, to: now + 1, limit: 10 })).toEqual([]);
      expect(await history(web)).toEqual([]);
    });
  });
}
