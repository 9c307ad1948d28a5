// Channel rules end to end in one composed server with an injected clock: scope (pages, groups, monitors and pages
// naming channels, reloaded when they change), hold, quiet during maintenance, flap damping with its summary, reminders.
// Results go through ingest, alerts through the dispatcher to a real webhook receiver.
// First: zod's .openapi(), before any schema is made (main.ts does the same).
import '@hono/zod-openapi';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { composeWarden, type WardenParts } from '../../compose.js';
import { applyConfig } from '../../config/apply.js';
import { parseConfigText } from '../../config/load.js';
import { createLogger } from '../../logger.js';
import { createNotifyReminders } from '../../runner/notify-reminders.js';
import { updateMonitor } from '../../services/monitors/update.js';
import { updatePage } from '../../services/pages/write.js';
import type { NotificationEvent } from '../channels/channel.js';

const T0 = Date.UTC(2026, 2, 10, 12, 0, 0);
const MIN = 60_000;
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

/** Lobby on page status (group Survival), under maintenance from T0 − 1 h to T0 + 1 h; proxy on page other, naming `named`. */
const config = (url: string, channels: Record<string, string>) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, retries: 0, config: { host: 127.0.0.1, port: 1 } }
  - { key: proxy, name: Proxy, type: tcp, retries: 0, notify: [${'named' in channels ? 'named' : ''}], config: { host: 127.0.0.1, port: 2 } }
pages:
  - slug: status
    title: Status
    components:
      - { key: lobby, name: Lobby, monitor: lobby, group: Survival }
    maintenance:
      - { key: upgrade, title: Upgrade, startsAt: ${T0 - 60 * MIN}, endsAt: ${T0 + 60 * MIN}, components: [lobby] }
  - slug: other
    title: Other
    components:
      - { key: proxy, name: Proxy, monitor: proxy }
    maintenance:
      - { key: move, title: Move, startsAt: ${T0 + 120 * MIN}, endsAt: ${T0 + 180 * MIN} }
notifications:
${Object.entries(channels)
  .map(
    ([key, rules]) =>
      `  - { key: ${key}, name: ${key}, type: webhook, config: { url: "${url}/${key}", secret: "${SECRET}" }, rules: ${rules} }`,
  )
  .join('\n')}
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`channel rules on ${dialect.name}`, () => {
    let receiver: Receiver;
    let opened: OpenedStore;
    let parts: WardenParts;
    let now = T0;
    let organizationId = '';
    const clock = { now: () => now };

    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
    });
    afterAll(async () => {
      await receiver?.close();
    });
    beforeEach(async () => {
      now = T0;
      receiver.requests.length = 0;
      opened = await dialect.open();
      parts = composeWarden({
        store: opened.store,
        clock,
        logger: createLogger('silent'),
        baseUrl: () => 'https://status.test',
      });
    });
    afterEach(async () => {
      await parts.dispatcher.stop();
      await parts.pages.stop();
      await parts.ingest.close();
      parts.outbox.close();
      await opened.cleanup();
    });

    async function setUp(channels: Record<string, string>): Promise<void> {
      const report = await applyConfig(parts.context, parseConfigText(config(receiver.url, channels), 'test.yaml', {}));
      organizationId = report.organization.id;
    }
    const monitorId = async (key: string) => (await opened.store.monitors.findByKey(organizationId, key))?.id as string;
    /** A check result of `key` at `at` (the clock moves there). */
    async function result(key: string, ok: boolean, at: number): Promise<void> {
      now = at;
      await parts.ingest.record({
        monitorId: await monitorId(key),
        ok,
        source: 'edge',
        checkedAt: at,
        ...(ok ? {} : { error: 'connection refused' }),
      });
    }
    /**
     * The channel's log, oldest first: each kind with why it was skipped, or "told" (sent, or on its way: a commit wakes
     * the dispatcher, which sends what is due at once).
     */
    async function log(key: string): Promise<[string, string][]> {
      const channel = await opened.store.channels.findByKey(organizationId, key);
      const deliveries = await opened.store.deliveries.listByChannel(channel?.id as string, 100);
      return deliveries.reverse().map((d) => [d.kind, d.status === 'skipped' ? `skipped: ${d.lastError}` : 'told']);
    }
    const eventsOf = async (key: string) => {
      const channel = await opened.store.channels.findByKey(organizationId, key);
      return (await opened.store.deliveries.listByChannel(channel?.id as string, 100))
        .reverse()
        .map((d) => JSON.parse(d.event) as NotificationEvent);
    };
    /** Sends what is due now (a monitor's deliveries go one after another: a round each). */
    async function send(at = now): Promise<void> {
      now = at;
      for (let round = 0; round < 8; round++) await parts.dispatcher.tick();
    }
    const received = (path?: string) =>
      receiver.requests
        .filter((r) => path === undefined || r.path === `/${path}`)
        .map((r) => (r.json as { type: string }).type);

    it('routes by pages, groups and the channels monitors and pages name, following their changes', async () => {
      await setUp({
        pages: '{ pages: [status] }',
        groups: '{ groups: [Survival] }',
        named: '{}',
        all: '{}',
        lobbyonly: '{ monitors: [lobby], events: [monitor.down], quietDuringMaintenance: false }',
      });
      // After the maintenance window, so nothing is quiet.
      await result('lobby', false, T0 + 61 * MIN);
      await result('proxy', false, T0 + 61 * MIN);
      await send();
      expect(received('pages')).toEqual(['monitor.down']);
      expect(received('groups')).toEqual(['monitor.down']);
      expect(received('named')).toEqual(['monitor.down']);
      expect(received('all')).toEqual(['monitor.down', 'monitor.down']);
      expect(received('lobbyonly')).toEqual(['monitor.down']);
      expect((await eventsOf('named'))[0]?.monitor?.key).toBe('proxy');

      // Lobby now names `named`, page other names `groups`: the outbox sees it at once (the change events).
      const ctx = { ...parts.context, organizationId, writer: 'config' as const };
      await updateMonitor(ctx, { id: await monitorId('lobby'), notify: ['named'] });
      await updatePage(ctx, { slug: 'other', notify: ['groups'] });
      await result('lobby', true, T0 + 62 * MIN);
      await result('proxy', true, T0 + 62 * MIN);
      await send();
      expect((await eventsOf('named')).map((e) => `${e.kind} ${e.monitor?.key}`)).toEqual([
        'monitor.down proxy',
        'monitor.recovered lobby',
        'monitor.recovered proxy',
      ]);
      expect((await eventsOf('groups')).map((e) => `${e.kind} ${e.monitor?.key}`)).toEqual([
        'monitor.down lobby',
        'monitor.recovered lobby',
        'monitor.recovered proxy',
      ]);
      expect(received('lobbyonly')).toEqual(['monitor.down']);
    });

    it('holds a state change, and skips it and its recovery when the state did not hold', async () => {
      await setUp({ held: '{ holdSec: 60, quietDuringMaintenance: false }' });
      await result('lobby', false, T0 + 1000);
      await send(T0 + 30_000);
      expect(received()).toEqual([]);
      await result('lobby', true, T0 + 40_000);
      await send(T0 + 61_000);
      await send(T0 + 101_000);
      expect(await log('held')).toEqual([
        ['monitor.down', 'skipped: the state did not hold for 60 s'],
        ['monitor.recovered', 'skipped: its down alert was not sent (the state did not hold for 60 s)'],
      ]);
      await result('lobby', false, T0 + 200_000);
      await send(T0 + 259_999);
      expect(received()).toEqual([]);
      await send(T0 + 260_000);
      expect(received()).toEqual(['monitor.down']);
    });

    it('keeps quiet about a monitor under maintenance, its component or its whole page, unless told not to', async () => {
      await setUp({ quiet: '{}', loud: '{ quietDuringMaintenance: false }' });
      await result('lobby', false, T0 + 1000);
      await result('lobby', true, T0 + 90 * MIN);
      await result('proxy', false, T0 + 121 * MIN);
      await send();
      expect(await log('quiet')).toEqual([
        ['monitor.down', 'skipped: under maintenance'],
        ['monitor.recovered', 'skipped: its down alert was not sent (under maintenance)'],
        ['monitor.down', 'skipped: under maintenance'],
      ]);
      expect(received('quiet')).toEqual([]);
      // Each monitor's alerts go in order; two monitors' may cross (a commit wakes the dispatcher, or a round sends both).
      expect(await log('loud')).toEqual([
        ['monitor.down', 'told'],
        ['monitor.recovered', 'told'],
        ['monitor.down', 'told'],
      ]);
      expect(received('loud').sort()).toEqual(['monitor.down', 'monitor.down', 'monitor.recovered']);
    });

    it('sends one flapping notice instead of each change, then a summary once it is calm for the window', async () => {
      await setUp({ flappy: '{ flap: { changes: 3, windowMin: 10 }, quietDuringMaintenance: false }' });
      await result('lobby', false, T0 + 1 * MIN);
      await result('lobby', true, T0 + 2 * MIN);
      await result('lobby', false, T0 + 3 * MIN);
      await result('lobby', true, T0 + 4 * MIN);
      expect(await log('flappy')).toEqual([
        ['monitor.down', 'told'],
        ['monitor.recovered', 'told'],
        ['monitor.down', 'skipped: flapping'],
        ['monitor.flapping', 'told'],
        ['monitor.recovered', 'skipped: flapping'],
      ]);
      const notice = (await eventsOf('flappy'))[3];
      expect(notice).toMatchObject({
        title: 'Lobby is flapping: 3 changes in 10 min',
        flap: { changes: 3, sinceAt: T0 + 1 * MIN, ended: false },
      });

      now = T0 + 14 * MIN - 1;
      expect(await parts.reminders.sweep()).toBe(0);
      now = T0 + 14 * MIN;
      // Another process sweeping at the same time publishes the same event: one delivery.
      expect((await parts.reminders.sweep()) + (await createNotifyReminders(parts.context).sweep())).toBe(1);
      const summary = (await eventsOf('flappy'))[5];
      expect(summary).toMatchObject({
        kind: 'monitor.flapping',
        title: 'Lobby stopped flapping after 4 changes in 3 min; now up',
        flap: { changes: 4, sinceAt: T0 + 1 * MIN, ended: true },
        monitor: { state: 'up' },
      });
      await result('lobby', false, T0 + 20 * MIN);
      expect((await log('flappy')).at(-1)).toEqual(['monitor.down', 'told']);
      await send();
      expect(received()).toEqual([
        'monitor.down',
        'monitor.recovered',
        'monitor.flapping',
        'monitor.flapping',
        'monitor.down',
      ]);
    });

    it('reminds while a monitor stays down, the latest reminder only, never after a skipped alert', async () => {
      await setUp({
        remind: '{ remindEveryMin: 30, quietDuringMaintenance: false }',
        quietremind: '{ remindEveryMin: 30 }',
      });
      const since = T0 + 1000;
      await result('lobby', false, since);
      await send();
      now = since + 30 * MIN - 1;
      expect(await parts.reminders.sweep()).toBe(0);
      now = since + 30 * MIN;
      expect(await parts.reminders.sweep()).toBe(1);
      expect(await createNotifyReminders(parts.context).sweep()).toBe(0);
      now = since + 95 * MIN;
      expect(await parts.reminders.sweep()).toBe(1);
      await send();
      const reminders = (await eventsOf('remind')).filter((e) => e.kind === 'monitor.reminder');
      expect(reminders.map((e) => [e.title, e.at, e.downSince])).toEqual([
        ['Lobby is still down (for 30 min)', since + 30 * MIN, since],
        ['Lobby is still down (for 1 h 30 min)', since + 90 * MIN, since],
      ]);
      expect(received('remind')).toEqual(['monitor.down', 'monitor.reminder', 'monitor.reminder']);
      expect(await log('quietremind')).toEqual([['monitor.down', 'skipped: under maintenance']]);
    });
  });
}
