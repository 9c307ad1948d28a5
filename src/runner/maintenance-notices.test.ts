// Maintenance windows told as they start and end (injected clock), each notice once across sweeps and processes; a
// window that ran while no server did is told only if it ended within the last hour.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../test/fakes/notify-receivers.js';
import { dialects } from '../../test/store-dialects.js';
import type { NotificationEvent } from '../notify/channels/channel.js';
import { createMaintenanceNotices } from './maintenance-notices.js';

const SECRET = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;
const START = Date.UTC(2026, 10, 20, 12);
const MIN = 60_000;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme }
pages:
  - slug: acme
    title: Acme status
    maintenance:
      - { key: patch, title: Patch day, description: Servers restart one by one., startsAt: 2026-11-20T12:10:00Z, endsAt: 2026-11-20T12:40:00Z }
      - { key: recent, title: Night move, startsAt: 2026-11-20T11:00:00Z, endsAt: 2026-11-20T11:30:00Z }
      - { key: history, title: Old move, startsAt: 2026-11-20T09:00:00Z, endsAt: 2026-11-20T10:00:00Z }
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`maintenance notices on ${dialect.name}`, () => {
    let h: Harness;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`), START);
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    let read = 0;
    const received = async () => {
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
        const unsettled = (await h.opened.store.deliveries.listByChannel(hook?.id as string, 50)).filter(
          (d) => d.status === 'pending' || d.status === 'sending',
        );
        expect(unsettled).toEqual([]);
      });
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events.map((e) => [e.kind, e.title, e.at]);
    };
    /** Another process's runner on the same database. */
    const other = () => createMaintenanceNotices(h.context);

    it('catches up on a window that ran while no server did only if it ended within the last hour', async () => {
      expect(await h.maintenanceNotices.sweep()).toBe(2);
      expect(await received()).toEqual([
        ['maintenance.started', 'Maintenance started: Night move', Date.UTC(2026, 10, 20, 11)],
        ['maintenance.ended', 'Maintenance ended: Night move', Date.UTC(2026, 10, 20, 11, 30)],
      ]);
      expect(await h.maintenanceNotices.sweep()).toBe(0);
    });

    it('tells a window starting and ending once each, with its page, times and description', async () => {
      h.clock.set(START + 10 * MIN - 1);
      expect(await h.maintenanceNotices.sweep()).toBe(0);
      h.clock.set(START + 10 * MIN);
      const [mine, theirs] = await Promise.all([h.maintenanceNotices.sweep(), other().sweep()]);
      expect(mine + theirs).toBe(1);
      expect(await h.maintenanceNotices.sweep()).toBe(0);
      // The first request received() returns (the dispatcher may have delivered it already, before this line).
      const receivedAt = read;
      expect(await received()).toEqual([['maintenance.started', 'Maintenance started: Patch day', START + 10 * MIN]]);
      const started = (receiver.requests[receivedAt]?.json as { data: NotificationEvent } | undefined)?.data;
      expect(started).toMatchObject({
        severity: 'info',
        reason: 'Servers restart one by one.',
        maintenance: { title: 'Patch day', startsAt: START + 10 * MIN, endsAt: START + 40 * MIN },
        pages: [{ slug: 'acme', title: 'Acme status', url: 'http://warden.test/s/acme' }],
      });
      h.clock.set(START + 40 * MIN);
      expect(await other().sweep()).toBe(1);
      expect(await h.maintenanceNotices.sweep()).toBe(0);
      expect(await received()).toEqual([['maintenance.ended', 'Maintenance ended: Patch day', START + 40 * MIN]]);
    });
  });
}
