// Store contract, notices told once: a relay's offline mark and maintenance windows' started/ended notices are set
// conditionally (one caller wins), and what is due is found by time.
import { beforeEach, expect, it } from 'vitest';
import {
  addComponent,
  addMonitor,
  addOrganization,
  addPage,
  addRelay,
  describeStore,
  maintenanceSpec,
  NOW,
  ORG,
} from './store-fixtures.js';

const MIN = 60_000;

describeStore('notices', (store) => {
  beforeEach(async () => {
    await addOrganization(store());
  });

  it('marks a relay offline once, only while it was last seen when the caller looked, and back once', async () => {
    const relay = await addRelay(store(), 'lab');
    await store().relays.touch(relay, NOW);
    expect(await store().relays.markOffline(relay, NOW - 1, NOW + MIN)).toBe(false); // seen since the caller looked
    expect(await store().relays.markOffline(relay, NOW, NOW + MIN)).toBe(true);
    expect(await store().relays.markOffline(relay, NOW, NOW + 2 * MIN)).toBe(false);
    await addMonitor(store(), 'far', { runOn: 'relay', relayId: relay, intervalSec: 30 });
    expect(await store().relays.listActivity()).toEqual([
      { id: relay, lastSeenAt: NOW, offlineSince: NOW + MIN, shortestIntervalSec: 30 },
    ]);
    await store().relays.setToken(relay, { hash: 'hash_lab', prefix: 'wdr_lab' }, NOW);
    expect(await store().relays.findByTokenHash('hash_lab')).toMatchObject({
      offlineSince: NOW + MIN,
      lastSeenAt: NOW,
    });
    expect(await store().relays.markBack(relay, NOW + 2 * MIN, NOW + 5 * MIN)).toBe(false); // another outage's mark
    expect(await store().relays.markBack(relay, NOW + MIN, NOW + 5 * MIN)).toBe(true);
    expect(await store().relays.markBack(relay, NOW + MIN, NOW + 6 * MIN)).toBe(false);
    expect(await store().relays.findByTokenHash('hash_lab')).toMatchObject({
      offlineSince: null,
      lastSeenAt: NOW + 5 * MIN,
    });
  });

  it("lists the pages that show a relay's monitors", async () => {
    const relay = await addRelay(store(), 'lab');
    const far = await addMonitor(store(), 'far', { runOn: 'relay', relayId: relay });
    const near = await addMonitor(store(), 'near');
    const one = await addPage(store(), 'one');
    const two = await addPage(store(), 'two');
    await addComponent(store(), one, 'far', { monitorId: far });
    await addComponent(store(), two, 'near', { monitorId: near });
    expect(await store().components.pageIdsShowingRelay(relay)).toEqual([one]);
  });

  it('finds windows whose start or end is due, and records each notice once', async () => {
    const page = await addPage(store(), 'status');
    const add = async (key: string, startsAt: number, endsAt: number) => {
      await store().maintenance.insert(
        { ...maintenanceSpec(key, { startsAt, endsAt }), id: `mnt_${key}`, pageId: page, managedBy: 'api' },
        NOW,
      );
      return `mnt_${key}`;
    };
    const running = await add('running', NOW - MIN, NOW + 60 * MIN);
    await add('later', NOW + MIN, NOW + 60 * MIN);
    const missed = await add('missed', NOW - 120 * MIN, NOW - 30 * MIN); // ran while no server did, ended 30 min ago
    await add('history', NOW - 300 * MIN, NOW - 200 * MIN); // the same, long ago
    const due = () => store().maintenance.listNoticesDue(NOW, NOW - 60 * MIN, 10);
    expect((await due()).map((d) => [d.window.key, d.organizationId, d.startedNoticeAt])).toEqual([
      ['missed', ORG.id, null],
      ['running', ORG.id, null],
    ]);
    expect(await store().maintenance.markNotice(running, 'started', NOW)).toBe(true);
    expect(await store().maintenance.markNotice(running, 'started', NOW + 1)).toBe(false);
    expect(await store().maintenance.markNotice(missed, 'started', NOW)).toBe(true);
    expect(await store().maintenance.markNotice(missed, 'ended', NOW)).toBe(true);
    expect(await due()).toEqual([]);
    // Its end passed: due again, for the ended notice (its start was told, so however long ago it ended).
    const later = await store().maintenance.listNoticesDue(NOW + 300 * MIN, NOW + 240 * MIN, 10);
    expect(later.map((d) => [d.window.key, d.startedNoticeAt, d.endedNoticeAt])).toEqual([['running', NOW, null]]);
    expect(later[0]?.window).toMatchObject({
      id: running,
      pageId: page,
      startsAt: NOW - MIN,
      endsAt: NOW + 60 * MIN,
      componentIds: [],
    });
  });
});
