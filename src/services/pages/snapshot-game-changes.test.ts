// A page that announces game changes: results that change a monitor's map or wipe are kept by ingest and come back in
// the page's snapshot (the last 24 hours, newest first, with the components showing the monitor); a page with the
// setting off, the default, carries none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOW } from '../../../test/fakes/assemble-parts.js';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { createInProcessBus } from '../../bus/bus.js';
import { DAY_MS, HOUR_MS } from '../../domain/check.js';
import { createLogger } from '../../logger.js';
import { createIngest } from '../../runner/ingest.js';
import { buildSnapshot } from './build-snapshot.js';

const STORED = `
organization: { key: acme, name: Acme }
monitors:
  - { key: rust, name: Rust, type: heartbeat, playerAlerts: { changes: [map, wipe] } }
  - { key: quiet, name: Quiet, type: heartbeat }
pages:
  - slug: acme
    title: Acme
    announceGameChanges: true
    components:
      - { name: Rust Main, monitor: rust }
      - { name: Quiet, monitor: quiet }
  - slug: plain
    title: Plain
    components: [{ name: Rust Main, monitor: rust }]
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`game changes in a page's snapshot on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('carries the changes of the last day on a page that announces them, and none on one that does not', async () => {
      const { store } = opened;
      const { monitors } = await seed(store, STORED, NOW - 3 * DAY_MS);
      const ingest = createIngest({
        store,
        bus: createInProcessBus(),
        clock: { now: () => NOW },
        logger: createLogger('silent'),
      });
      const rust = monitors.rust!.id;
      const wiped = (days: number) => Date.UTC(2026, 10, 13 + days, 18);
      const result = (hoursAgo: number, map: string, wipe: number) => ({
        monitorId: rust,
        ok: true,
        source: 'edge' as const,
        checkedAt: NOW - hoursAgo * HOUR_MS,
        data: { players: 3, map, wipedAt: wipe },
      });
      for (const r of [
        result(48, 'Procedural Map', wiped(0)),
        result(30, 'Barren', wiped(0)),
        result(3, 'Barren', wiped(7)),
        result(1, 'Hapis', wiped(7)),
      ])
        await ingest.recordMany([r]);
      const page = await store.pages.findBySlug('acme');
      const snapshot = await buildSnapshot({ store }, { page: page!, now: NOW, pageUrl: 'https://s.example/s/acme' });
      expect(snapshot.gameChanges).toEqual([
        {
          id: expect.stringMatching(/^evt_/),
          field: 'map',
          from: 'Barren',
          to: 'Hapis',
          at: NOW - HOUR_MS,
          components: [{ id: expect.any(String), name: 'Rust Main' }],
        },
        expect.objectContaining({
          field: 'wipe',
          from: new Date(wiped(0)).toISOString(),
          to: new Date(wiped(7)).toISOString(),
          at: NOW - 3 * HOUR_MS,
        }),
      ]);
      const plain = await store.pages.findBySlug('plain');
      const other = await buildSnapshot({ store }, { page: plain!, now: NOW, pageUrl: 'https://s.example/s/plain' });
      expect(other).not.toHaveProperty('gameChanges');
    });
  });
}
