// The outbox written in the ingest commit: down after the retries, recovered with the downtime, degraded; rules filter;
// a replayed change gets the same event id and no second delivery.
import { expect, it } from 'vitest';
import {
  addComponent,
  addMonitor,
  addOrganization,
  addPage,
  describeStore,
  NOW,
  ORG,
} from '../../../test/contracts/store-fixtures.js';
import { commit } from '../../runner/ingest-commit.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';
import { createNotificationOutbox } from './outbox.js';

async function addChannel(
  store: Store,
  key: string,
  rules: { events?: string[]; monitors?: string[] } = {},
): Promise<string> {
  const id = `nch_${key}`;
  await store.channels.insert(
    { id, organizationId: ORG.id, key, name: key, type: 'webhook', config: {}, rules, enabled: true, managedBy: 'api' },
    NOW,
  );
  return id;
}

const events = async (store: Store, channelId: string) =>
  (await store.deliveries.listByChannel(channelId, 50)).reverse().map((d) => JSON.parse(d.event) as NotificationEvent);

describeStore('notification outbox in the ingest commit', (store) => {
  it('enqueues down after the retries, then recovered with the downtime, for the channels whose rules want them', async () => {
    await addOrganization(store());
    const mon = await addMonitor(store(), 'lobby', { retries: 1 });
    const page = await addPage(store(), 'status');
    await addComponent(store(), page, 'lobby', { monitorId: mon });
    const all = await addChannel(store(), 'all');
    const downOnly = await addChannel(store(), 'down-only', { events: ['monitor.down'] });
    const other = await addChannel(store(), 'other', { monitors: ['elsewhere'] });
    const outbox = createNotificationOutbox({ clock: { now: () => NOW }, baseUrl: () => 'https://status.example' });
    const result = (ok: boolean, at: number) =>
      commit(
        store(),
        [{ monitorId: mon, ok, source: 'edge', checkedAt: at, error: ok ? null : 'connection refused' }],
        at,
        outbox,
      );
    expect((await result(true, NOW)).enqueued).toBe(0); // unknown → up: nothing
    expect((await result(false, NOW + 60_000)).enqueued).toBe(0); // first failure: a retry
    expect((await result(false, NOW + 120_000)).enqueued).toBe(2); // down: 'all' and 'down-only'
    expect((await result(true, NOW + 420_000)).enqueued).toBe(1); // recovered: 'all' only
    const sent = await events(store(), all);
    expect(sent.map((e) => e.kind)).toEqual(['monitor.down', 'monitor.recovered']);
    expect(sent[0]).toMatchObject({
      severity: 'critical',
      title: 'Monitor lobby is down',
      reason: 'connection refused',
      organization: { key: ORG.key },
    });
    expect(sent[0]?.pages).toEqual([{ slug: 'status', title: 'Page status', url: 'https://status.example/s/status' }]);
    expect(sent[1]?.monitor).toMatchObject({ key: 'lobby', state: 'up', previousState: 'down', downtimeMs: 300_000 });
    expect(sent[1]?.title).toBe('Monitor lobby is back up after 5 min');
    expect((await events(store(), downOnly)).map((e) => e.kind)).toEqual(['monitor.down']);
    expect(await events(store(), other)).toEqual([]);
    const [down] = sent;
    // The same change enqueued again (a replay) keeps its event id and adds no delivery.
    const again = await store().transaction((tx) =>
      outbox.enqueue(
        tx,
        [
          {
            monitorId: mon,
            organizationId: ORG.id,
            previous: 'up',
            previousSince: NOW,
            state: 'down',
            at: NOW + 120_000,
            reason: null,
            lastResult: null,
          },
        ],
        NOW + 1,
      ),
    );
    expect(again).toBe(0);
    expect((await store().deliveries.listByChannel(all, 50)).filter((d) => d.eventId === down?.id)).toHaveLength(1);
  });

  it('enqueues nothing when the commit rolls back, and reloads channels when told', async () => {
    await addOrganization(store());
    const mon = await addMonitor(store(), 'lobby', { retries: 0 });
    const outbox = createNotificationOutbox({ clock: { now: () => NOW } });
    await commit(store(), [{ monitorId: mon, ok: true, source: 'edge', checkedAt: NOW }], NOW, outbox);
    // Down without channels: the organization is cached without any.
    expect(
      (await commit(store(), [{ monitorId: mon, ok: false, source: 'edge', checkedAt: NOW + 1 }], NOW + 1, outbox))
        .enqueued,
    ).toBe(0);
    const ch = await addChannel(store(), 'late');
    expect(
      (await commit(store(), [{ monitorId: mon, ok: true, source: 'edge', checkedAt: NOW + 2 }], NOW + 2, outbox))
        .enqueued,
    ).toBe(0);
    outbox.invalidate(ORG.id);
    await expect(
      store().transaction(async (tx) => {
        expect(
          (await commit(tx, [{ monitorId: mon, ok: false, source: 'edge', checkedAt: NOW + 3 }], NOW + 3, outbox))
            .enqueued,
        ).toBe(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store().deliveries.listByChannel(ch, 10)).toEqual([]);
    expect(
      (await commit(store(), [{ monitorId: mon, ok: false, source: 'edge', checkedAt: NOW + 4 }], NOW + 4, outbox))
        .enqueued,
    ).toBe(1);
  });
});
