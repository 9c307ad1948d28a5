// A recurring maintenance window end to end (issue 35), in one composed server with an injected clock: during an
// occurrence the covered monitor's page shows maintenance and its down alert is skipped, outside one it is told; each
// occurrence's start and end notices go out once across two passes and two processes on one store.
// First: zod's .openapi(), before any schema is made (main.ts does the same).
import '@hono/zod-openapi';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { composeWarden, type WardenParts } from '../../compose.js';
import { applyConfig } from '../../config/apply.js';
import { parseConfigText } from '../../config/load.js';
import { createLogger } from '../../logger.js';
import { createMaintenanceNotices } from '../../runner/maintenance-notices.js';
import { buildSnapshot } from '../../services/pages/build-snapshot.js';

// Tuesday 2026-03-10, 12:00 UTC: 13:00 in Berlin (CET). The window repeats on Tuesdays 13:00–14:00 Berlin time.
const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const MIN = 60_000;
const WEEK = 7 * 24 * 60 * MIN;
const SECRET = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
const config = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 1 } }
pages:
  - slug: status
    title: Status
    components:
      - { key: lobby, name: Lobby, monitor: lobby }
    maintenance:
      - key: weekly
        title: Weekly patch
        startsAt: 2026-03-01T00:00:00Z
        components: [lobby]
        recurrence: [{ cron: "0 13 * * 2", timezone: Europe/Berlin, durationMin: 60 }]
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "http://127.0.0.1:9/hook", secret: "${SECRET}" }, rules: {} }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`recurring maintenance on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let parts: WardenParts;
    let now = T0;
    let organizationId = '';

    beforeEach(async () => {
      now = T0;
      opened = await dialect.open();
      parts = composeWarden({
        store: opened.store,
        clock: { now: () => now },
        logger: createLogger('silent'),
        baseUrl: () => 'https://status.test',
      });
      organizationId = (await applyConfig(parts.context, parseConfigText(config, 'test.yaml', {}))).organization.id;
    });
    afterEach(async () => {
      await parts.dispatcher.stop();
      await parts.pages.stop();
      await parts.ingest.close();
      parts.outbox.close();
      await opened.cleanup();
    });

    const monitorId = async () => (await opened.store.monitors.findByKey(organizationId, 'lobby'))?.id as string;
    async function result(ok: boolean, at: number): Promise<void> {
      now = at;
      await parts.ingest.record({ monitorId: await monitorId(), ok, source: 'edge', checkedAt: at });
    }
    async function log(): Promise<string[]> {
      const channel = await opened.store.channels.findByKey(organizationId, 'hook');
      const deliveries = await opened.store.deliveries.listByChannel(channel?.id as string, 100);
      return deliveries.reverse().map((d) => `${d.kind}${d.status === 'skipped' ? ' (skipped)' : ''}`);
    }
    async function snapshot() {
      const page = await opened.store.pages.findBySlug('status');
      if (!page) throw new Error('no page');
      return buildSnapshot({ store: opened.store }, { page, now, pageUrl: 'https://status.test/s/status' });
    }

    it('shows maintenance and keeps quiet during an occurrence, and not outside one', async () => {
      await result(false, T0 + 10 * MIN);
      let shown = await snapshot();
      expect(shown.components[0]?.state).toBe('maintenance');
      expect(shown.maintenance.active.map((m) => [m.startsAt, m.endsAt])).toEqual([[T0, T0 + 60 * MIN]]);
      await result(true, T0 + 20 * MIN);
      expect(await log()).toEqual(['monitor.down (skipped)', 'monitor.recovered (skipped)']);

      await result(false, T0 + 2 * 60 * MIN);
      shown = await snapshot();
      expect(shown.components[0]?.state).toBe('down');
      expect(shown.maintenance.upcoming.map((m) => m.startsAt)).toEqual([T0 + WEEK]);
      expect((await log()).slice(2)).toEqual(['monitor.down']);
    });

    it('tells each occurrence starting and ending once, across passes and processes', async () => {
      const mine = createMaintenanceNotices(parts.context);
      const theirs = createMaintenanceNotices(parts.context);
      const both = async (at: number) => {
        now = at;
        const [a, b] = await Promise.all([mine.sweep(), theirs.sweep()]);
        return a + b + (await mine.sweep());
      };
      expect(await both(T0 - MIN)).toBe(0);
      expect(await both(T0 + MIN)).toBe(1);
      expect(await both(T0 + 2 * MIN)).toBe(0);
      expect(await both(T0 + 61 * MIN)).toBe(1);
      expect(await both(T0 + 62 * MIN)).toBe(0);
      // Next week's occurrence is another notice; after the change to summer time it is still 13:00 in Berlin.
      expect(await both(T0 + WEEK + MIN)).toBe(1);
      expect(await both(T0 + WEEK + 61 * MIN)).toBe(1);
      expect(await both(T0 + 3 * WEEK - 60 * MIN + MIN)).toBe(1);
      const events = (await log()).filter((k) => k.startsWith('maintenance'));
      expect(events).toEqual([
        'maintenance.started',
        'maintenance.ended',
        'maintenance.started',
        'maintenance.ended',
        'maintenance.started',
      ]);
    });

    it('tells no one of a quiet window (announce: false), which still shows and keeps its monitors quiet', async () => {
      const applied = await applyConfig(
        parts.context,
        parseConfigText(
          config.replace('components: [lobby]\n', 'components: [lobby]\n        announce: false\n'),
          't.yaml',
          {},
        ),
      );
      expect(applied.organization.id).toBe(organizationId);
      const notices = createMaintenanceNotices(parts.context);
      now = T0 + MIN;
      expect(await notices.sweep()).toBe(0);
      await result(false, T0 + 10 * MIN);
      const shown = await snapshot();
      expect(shown.components[0]?.state).toBe('maintenance');
      expect(shown.maintenance.active.map((m) => [m.startsAt, m.endsAt])).toEqual([[T0, T0 + 60 * MIN]]);
      now = T0 + 61 * MIN;
      expect(await notices.sweep()).toBe(0);
      expect(await log()).toEqual(['monitor.down (skipped)']);
    });
  });
}
