// Maintenance covering monitors directly (issue 35), end to end in one composed server with an injected clock: a
// covered monitor's down alert is skipped wherever it is shown (or on no page at all), an uncovered one on the same
// page is told, and the window's page shows the components showing a covered monitor under maintenance.
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

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const MIN = 60_000;
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const tcp = (key: string, port: number) =>
  `{ key: ${key}, name: ${key}, type: tcp, retries: 0, config: { host: 127.0.0.1, port: ${port} } }`;
/** The window is on page status and covers db (shown on both pages) and cache (shown nowhere); lobby is not covered. */
const config = `
organization: { key: acme, name: Acme }
monitors:
  - ${tcp('db', 1)}
  - ${tcp('cache', 2)}
  - ${tcp('lobby', 3)}
pages:
  - slug: status
    title: Status
    components:
      - { key: db, name: Database, monitor: db, group: Data }
      - { key: lobby, name: Lobby, monitor: lobby, group: Game }
    maintenance:
      - { key: upgrade, title: Upgrade, startsAt: ${T0 - 60 * MIN}, endsAt: ${T0 + 60 * MIN}, monitors: [db, cache] }
  - slug: other
    title: Other
    components:
      - { key: db, name: Database, monitor: db }
notifications:
${[
  ['hook', '{}'],
  ['data', '{ groups: [Data] }'],
  ['game', '{ groups: [Game] }'],
]
  .map(
    ([key, rules]) =>
      `  - { key: ${key}, name: ${key}, type: webhook, config: { url: "http://127.0.0.1:9/${key}", secret: "${SECRET}" }, rules: ${rules} }`,
  )
  .join('\n')}
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`maintenance covering monitors on ${dialect.name}`, () => {
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

    async function down(key: string, at: number): Promise<void> {
      now = at;
      const monitor = await opened.store.monitors.findByKey(organizationId, key);
      await parts.ingest.record({ monitorId: monitor?.id as string, ok: false, source: 'edge', checkedAt: at });
    }
    /** Each delivery as monitor key (or page), kind and why it was skipped (or "told"), oldest first. */
    async function log(key = 'hook'): Promise<string[]> {
      const channel = await opened.store.channels.findByKey(organizationId, key);
      const keys = new Map((await opened.store.monitors.list(organizationId)).map((m) => [m.id, m.key]));
      const deliveries = await opened.store.deliveries.listByChannel(channel?.id as string, 100);
      return deliveries
        .reverse()
        .map(
          (d) => `${keys.get(d.monitorId ?? '') ?? 'page'} ${d.kind}: ${d.status === 'skipped' ? d.lastError : 'told'}`,
        );
    }
    async function states(slug: string): Promise<Record<string, string>> {
      const page = await opened.store.pages.findBySlug(slug);
      if (!page) throw new Error(`no page ${slug}`);
      const snapshot = await buildSnapshot(
        { store: opened.store },
        { page, now, pageUrl: `https://status.test/s/${slug}` },
      );
      return {
        overall: snapshot.overall.state,
        ...Object.fromEntries(snapshot.components.map((c) => [c.name, c.state])),
      };
    }

    it('skips the down alerts of the monitors it covers, wherever shown, and tells the others', async () => {
      await down('db', T0 + MIN);
      await down('cache', T0 + 2 * MIN);
      await down('lobby', T0 + 3 * MIN);
      expect(await log()).toEqual([
        'db monitor.down: under maintenance',
        'cache monitor.down: under maintenance',
        'lobby monitor.down: told',
      ]);
      // Not page-wide: the lobby stays down on the window's page; the window's page alone shows it.
      expect(await states('status')).toEqual({ overall: 'down', Database: 'maintenance', Lobby: 'down' });
      expect(await states('other')).toEqual({ overall: 'down', Database: 'down' });
    });

    it('tells its start to the channels of the groups of the components showing a covered monitor only', async () => {
      expect(await createMaintenanceNotices(parts.context).sweep()).toBe(1);
      expect(await log('data')).toEqual(['page maintenance.started: told']);
      expect(await log('game')).toEqual([]);
    });

    it('tells the down alert of a covered monitor once the window is over', async () => {
      await down('db', T0 + 61 * MIN);
      expect(await log()).toEqual(['db monitor.down: told']);
      expect(await states('status')).toMatchObject({ Database: 'down' });
    });
  });
}
