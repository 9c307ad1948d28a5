// The alerts a commit's state changes open and close (alerts.ts): a commit of many monitors back up reads which of
// them have an alert once, and closes only those; one that went down and up in the same commit closes the alert it
// opened.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import type { StateChange } from '../events/monitors.js';
import { createAlertTracker } from './alerts.js';

const CONFIG = `
organization: { name: T }
monitors:
${Array.from({ length: 6 }, (_, i) => `  - { key: m${i}, name: M${i}, type: heartbeat }`).join('\n')}
`;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`alert tracking on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let ids: string[];
    let organizationId: string;
    const now = Date.UTC(2026, 10, 30, 12);

    const change = (i: number, state: 'up' | 'down', at: number): StateChange => ({
      monitorId: ids[i] as string,
      organizationId,
      previous: state === 'up' ? 'down' : 'up',
      previousSince: now - 60_000,
      state,
      at,
      reason: state === 'down' ? 'timed out' : null,
      lastResult: null,
    });

    beforeEach(async () => {
      opened = await dialect.open();
      const seeded = await seed(opened.store, CONFIG, now);
      const monitors = Object.values(seeded.monitors);
      ids = monitors.map((m) => m.id);
      organizationId = (monitors[0] as (typeof monitors)[number]).organizationId;
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('reads the open alerts once for a commit of monitors back up, and closes only theirs', async () => {
      const tracker = createAlertTracker(() => '');
      // m0 has been down (its alert is open); m1–m4 come up with none (the first result after a start).
      await tracker.track(opened.store, [change(0, 'down', now - 30_000)], now - 30_000);
      const openOf = vi.spyOn(opened.store.alerts, 'openOf');
      const close = vi.spyOn(opened.store.alerts, 'close');
      const changes = [0, 1, 2, 3, 4].map((i) => change(i, 'up', now));
      // m5 goes down and back up within the same commit: the alert it opens is closed again.
      changes.push(change(5, 'down', now), change(5, 'up', now + 1));
      const moves = await tracker.track(opened.store, changes, now);
      expect(openOf).toHaveBeenCalledTimes(1);
      expect(close.mock.calls.map(([id]) => id).sort()).toEqual([ids[0], ids[5]].sort());
      expect([...moves.closed.keys()].sort()).toEqual([ids[0], ids[5]].sort());
      expect(await opened.store.alerts.openOf(ids)).toEqual([]);
    });

    it('finds the open alerts of more monitors than one query takes', async () => {
      const many = await seed(
        opened.store,
        `organization: { key: many, name: Many }\nmonitors:\n${Array.from({ length: 520 }, (_, i) => `  - { key: n${i}, name: N${i}, type: heartbeat }`).join('\n')}`,
        now,
      );
      const manyIds = Object.values(many.monitors).map((m) => m.id);
      const tracker = createAlertTracker(() => '');
      const down = (id: string): StateChange => ({
        ...change(0, 'down', now),
        monitorId: id,
        organizationId: many.monitors.n0?.organizationId as string,
      });
      await tracker.track(opened.store, [down(manyIds[3] as string), down(manyIds[510] as string)], now);
      const open = await opened.store.alerts.openOf(manyIds);
      expect(open.map((a) => a.monitorId).sort()).toEqual([manyIds[3], manyIds[510]].sort());
    });
  });
