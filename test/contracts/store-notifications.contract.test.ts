// The notifications repository on every dialect: channels by organization, the outbox's enqueue, claims, acknowledgements and pruning.
import { expect, it } from 'vitest';
import type { NewDelivery, NotificationChannelSpec } from '../../src/domain/notification.js';
import type { Store } from '../../src/store/index.js';
import { addOrganization, describeStore, NOW, ORG, OTHER_ORG, rejectionOf } from './store-fixtures.js';

const LEASE = 30_000;

function channelSpec(key: string, overrides: Partial<NotificationChannelSpec> = {}): NotificationChannelSpec {
  return { key, name: `Channel ${key}`, type: 'webhook', config: { url: 'http://127.0.0.1:1/hook' }, rules: {}, enabled: true, ...overrides };
}

async function addChannel(store: Store, key: string, overrides: Partial<NotificationChannelSpec> & { organizationId?: string } = {}): Promise<string> {
  const { organizationId = ORG.id, ...spec } = overrides;
  const id = `nch_${key}`;
  await store.notifications.insertChannel({ ...channelSpec(key, spec), id, organizationId, managedBy: 'api' }, NOW);
  return id;
}

let seq = 0;
function delivery(channelId: string, eventId: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  seq += 1;
  return {
    id: `dlv_${String(seq).padStart(6, '0')}`,
    eventId,
    channelId,
    organizationId: ORG.id,
    monitorId: 'mon_a',
    kind: 'monitor.down',
    event: JSON.stringify({ id: eventId }),
    nextAttemptAt: NOW,
    ...overrides,
  };
}

describeStore('store notifications', (store) => {
  it('keeps channels per organization, enabled ones apart, and deletes a channel with its deliveries', async () => {
    await addOrganization(store());
    await addOrganization(store(), OTHER_ORG);
    const a = await addChannel(store(), 'a', { rules: { events: ['monitor.down'], monitors: ['lobby'] } });
    await addChannel(store(), 'b', { enabled: false });
    await addChannel(store(), 'a2', { organizationId: OTHER_ORG.id });
    expect((await store().notifications.listChannels(ORG.id)).map((c) => c.key)).toEqual(['a', 'b']);
    expect((await store().notifications.listEnabledChannels(ORG.id)).map((c) => c.key)).toEqual(['a']);
    const found = await store().notifications.findChannelByKey(ORG.id, 'a');
    expect(found).toMatchObject({ id: a, type: 'webhook', config: { url: 'http://127.0.0.1:1/hook' }, rules: { events: ['monitor.down'], monitors: ['lobby'] }, enabled: true });
    const error = await rejectionOf(store().notifications.insertChannel({ ...channelSpec('a'), id: 'nch_dup', organizationId: ORG.id, managedBy: 'api' }, NOW));
    expect(store().isUniqueViolation(error)).toBe(true);
    await store().notifications.updateChannel(a, channelSpec('a', { name: 'Renamed', enabled: false }), 'config', NOW + 1);
    expect(await store().notifications.findChannel(a)).toMatchObject({ name: 'Renamed', enabled: false, managedBy: 'config', updatedAt: NOW + 1 });
    await store().notifications.enqueue([delivery(a, 'evt_1')], NOW);
    await store().notifications.deleteChannel(a);
    expect(await store().notifications.findChannel(a)).toBeUndefined();
    expect(await store().notifications.listDeliveries(a, 10)).toEqual([]);
  });

  it('enqueues once per (event, channel): a duplicate is ignored', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    expect(await store().notifications.enqueue([delivery(a, 'evt_1'), delivery(b, 'evt_1')], NOW)).toBe(2);
    expect(await store().notifications.enqueue([delivery(a, 'evt_1'), delivery(a, 'evt_2')], NOW)).toBe(1);
    expect((await store().notifications.listDeliveries(a, 10)).map((d) => d.eventId).sort()).toEqual(['evt_1', 'evt_2']);
  });

  it('claims due deliveries once, leaves future ones, and acknowledges them', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().notifications.enqueue([delivery(a, 'evt_1', { monitorId: 'mon_a' }), delivery(a, 'evt_2', { monitorId: 'mon_b', nextAttemptAt: NOW + 5000 })], NOW);
    const claimed = await store().notifications.claimDue(NOW, 10, LEASE);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ eventId: 'evt_1', status: 'sending', attempts: 1, claimedUntil: NOW + LEASE });
    expect(await store().notifications.claimDue(NOW + 1000, 10, LEASE)).toEqual([]);
    await store().notifications.markSent(claimed[0]!.id, NOW + 10, 204, '');
    const [retry] = await store().notifications.claimDue(NOW + 5000, 10, LEASE);
    expect(retry?.eventId).toBe('evt_2');
    await store().notifications.markRetry(retry!.id, NOW + 9000, 'HTTP 503', 503, 'busy');
    expect(await store().notifications.claimDue(NOW + 8999, 10, LEASE)).toEqual([]);
    const [again] = await store().notifications.claimDue(NOW + 9000, 10, LEASE);
    expect(again).toMatchObject({ attempts: 2, lastError: 'HTTP 503', lastStatus: 503, lastAnswer: 'busy' });
    await store().notifications.markDead(again!.id, 'HTTP 400', 400, 'bad embed');
    const log = await store().notifications.listDeliveries(a, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({ status: 'sent', sentAt: NOW + 10, lastStatus: 204 });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({ status: 'dead', lastStatus: 400, lastAnswer: 'bad embed', attempts: 2 });
    // An acknowledgement after the row moved on changes nothing.
    await store().notifications.markRetry(again!.id, NOW, 'late', null, null);
    expect((await store().notifications.listDeliveries(a, 10)).find((d) => d.eventId === 'evt_2')?.status).toBe('dead');
  });

  it('takes an expired claim again (a crashed sender), not one still held', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().notifications.enqueue([delivery(a, 'evt_1')], NOW);
    expect(await store().notifications.claimDue(NOW, 10, LEASE)).toHaveLength(1);
    expect(await store().notifications.claimDue(NOW + LEASE - 1, 10, LEASE)).toEqual([]);
    const [retaken] = await store().notifications.claimDue(NOW + LEASE, 10, LEASE);
    expect(retaken).toMatchObject({ eventId: 'evt_1', attempts: 2, claimedUntil: NOW + 2 * LEASE });
  });

  it('keeps the order per channel and monitor: a later event waits while an earlier one is pending or sending', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    await store().notifications.enqueue([delivery(a, 'evt_1'), delivery(a, 'evt_2'), delivery(b, 'evt_1'), delivery(a, 'evt_3', { monitorId: 'mon_z' })], NOW);
    const first = await store().notifications.claimDue(NOW, 10, LEASE);
    expect(first.map((d) => `${d.channelId}/${d.eventId}`).sort()).toEqual(['nch_a/evt_1', 'nch_a/evt_3', 'nch_b/evt_1']);
    const one = first.find((d) => d.channelId === a && d.eventId === 'evt_1')!;
    await store().notifications.markRetry(one.id, NOW + 1000, 'down', null, null);
    expect(await store().notifications.claimDue(NOW + 500, 10, LEASE)).toEqual([]);
    const [retried] = await store().notifications.claimDue(NOW + 1000, 10, LEASE);
    expect(retried?.eventId).toBe('evt_1');
    await store().notifications.markSent(retried!.id, NOW + 1000, 200, null);
    expect((await store().notifications.claimDue(NOW + 1000, 10, LEASE)).map((d) => d.eventId)).toEqual(['evt_2']);
  });

  it('leaves the channels a claimer has enough of for a later claim, and hands claims back due later (a rate-limited channel)', async () => {
    await addOrganization(store());
    const slow = await addChannel(store(), 'slow');
    const fast = await addChannel(store(), 'fast');
    await store().notifications.enqueue([delivery(slow, 'evt_1', { monitorId: 'mon_1' }), delivery(slow, 'evt_2', { monitorId: 'mon_2' })], NOW);
    await store().notifications.enqueue([delivery(fast, 'evt_3', { monitorId: 'mon_3' })], NOW + 1);
    const [only] = await store().notifications.claimDue(NOW + 1, 10, LEASE, [slow]);
    expect(only).toMatchObject({ channelId: fast, eventId: 'evt_3' });
    const claimed = await store().notifications.claimDue(NOW + 1, 10, LEASE, []);
    expect(claimed.map((d) => d.eventId)).toEqual(['evt_1', 'evt_2']);
    expect(await store().notifications.releaseClaims(claimed.map((d) => d.id), NOW + 3000)).toBe(2);
    expect(await store().notifications.claimDue(NOW + 2999, 10, LEASE)).toEqual([]);
    const again = await store().notifications.claimDue(NOW + 3000, 10, LEASE);
    expect(again.map((d) => [d.eventId, d.attempts])).toEqual([
      ['evt_1', 1],
      ['evt_2', 1],
    ]);
  });

  it('makes a channel’s retries due at once, not its held or first deliveries, nor another channel’s', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    await store().notifications.enqueue(
      [delivery(a, 'evt_1', { monitorId: 'mon_1' }), delivery(a, 'evt_2', { monitorId: 'mon_2', nextAttemptAt: NOW + 60_000 }), delivery(b, 'evt_3', { monitorId: 'mon_3' })],
      NOW,
    );
    for (const d of await store().notifications.claimDue(NOW, 10, LEASE)) await store().notifications.markRetry(d.id, NOW + 30_000, 'refused', null, null);
    expect(await store().notifications.retryChannelNow(a, NOW + 10)).toBe(1);
    const due = Object.fromEntries((await store().notifications.listDeliveries(a, 10)).map((d) => [d.eventId, d.nextAttemptAt]));
    expect(due).toEqual({ evt_1: NOW + 10, evt_2: NOW + 60_000 });
    expect((await store().notifications.listDeliveries(b, 10))[0]?.nextAttemptAt).toBe(NOW + 30_000);
  });

  it('never gives the same row to two concurrent claimers', async () => {
    await addOrganization(store());
    const rows: NewDelivery[] = [];
    for (let c = 0; c < 4; c++) {
      const id = await addChannel(store(), `c${c}`);
      for (let m = 0; m < 25; m++) rows.push(delivery(id, `evt_${m}`, { monitorId: `mon_${m}` }));
    }
    await store().notifications.enqueue(rows, NOW);
    const claims = await Promise.all(Array.from({ length: 8 }, () => store().notifications.claimDue(NOW, 20, LEASE)));
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rest = await store().notifications.claimDue(NOW, 1000, LEASE);
    expect(ids.length + rest.length).toBe(100);
  });

  it('prunes sent and dead deliveries older than the cut-off, never pending ones', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().notifications.enqueue([delivery(a, 'evt_1', { monitorId: 'mon_1' }), delivery(a, 'evt_2', { monitorId: 'mon_2' }), delivery(a, 'evt_3', { monitorId: 'mon_3' })], NOW);
    const claimed = await store().notifications.claimDue(NOW, 2, LEASE);
    await store().notifications.markSent(claimed[0]!.id, NOW, 200, null);
    await store().notifications.markDead(claimed[1]!.id, 'HTTP 404', 404, null);
    expect(await store().notifications.pruneDeliveries(NOW, 100)).toBe(0);
    expect(await store().notifications.pruneDeliveries(NOW + 1, 1)).toBe(1);
    expect(await store().notifications.pruneDeliveries(NOW + 1, 100)).toBe(1);
    expect((await store().notifications.listDeliveries(a, 10)).map((d) => d.status)).toEqual(['pending']);
  });

  it('releases claims unsent: pending again, due at once, the attempt not counted; other rows untouched', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().notifications.enqueue([delivery(a, 'evt_1', { monitorId: 'mon_1' }), delivery(a, 'evt_2', { monitorId: 'mon_2' })], NOW);
    const claimed = await store().notifications.claimDue(NOW, 10, LEASE);
    expect(claimed).toHaveLength(2);
    const [one, two] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
    await store().notifications.markSent(two.id, NOW + 5, 204, null);
    expect(await store().notifications.releaseClaims([], NOW + 10)).toBe(0);
    expect(await store().notifications.releaseClaims([one.id, two.id, 'dlv_missing'], NOW + 10)).toBe(1);
    const log = await store().notifications.listDeliveries(a, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: NOW + 10, claimedUntil: null });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({ status: 'sent', attempts: 1 });
    // Not waiting for the lease: claimable at once, same event.
    const [again] = await store().notifications.claimDue(NOW + 10, 10, LEASE);
    expect(again).toMatchObject({ id: one.id, eventId: 'evt_1', attempts: 1, claimedUntil: NOW + 10 + LEASE });
  });

  it('records a delivery already attempted (a channel test) as given, and never claims it', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const row = {
      ...delivery(a, 'evt_test', { monitorId: null, kind: 'test' }),
      subscriberId: null,
      status: 'sent' as const,
      attempts: 1,
      claimedUntil: null,
      lastError: null,
      lastStatus: 204,
      lastAnswer: 'ok',
      createdAt: NOW,
      sentAt: NOW + 5,
    };
    await store().notifications.recordDelivery(row);
    expect(await store().notifications.listDeliveries(a, 10)).toEqual([row]);
    expect(await store().notifications.claimDue(NOW + 1000, 10, LEASE)).toEqual([]);
  });
});
