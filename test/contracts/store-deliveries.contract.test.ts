// store.deliveries on every dialect: the outbox's enqueue, claims, acknowledgements, retries, hand-backs, the reads of
// the timing rules (stats, last, latest per monitor) and pruning.
import { expect, it } from 'vitest';
import type { NewDelivery } from '../../src/domain/notification.js';
import { addChannel, addOrganization, delivery, describeStore, NOW } from './store-fixtures.js';

const LEASE = 30_000;

describeStore('store deliveries', (store) => {
  it('enqueues once per (event, channel): a duplicate is ignored', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    expect(await store().deliveries.enqueue([delivery(a, 'evt_1'), delivery(b, 'evt_1')], NOW)).toBe(2);
    expect(await store().deliveries.enqueue([delivery(a, 'evt_1'), delivery(a, 'evt_2')], NOW)).toBe(1);
    expect((await store().deliveries.listByChannel(a, 10)).map((d) => d.eventId).sort()).toEqual(['evt_1', 'evt_2']);
  });

  it('claims due deliveries once, leaves future ones, and acknowledges them', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().deliveries.enqueue(
      [
        delivery(a, 'evt_1', { monitorId: 'mon_a' }),
        delivery(a, 'evt_2', { monitorId: 'mon_b', nextAttemptAt: NOW + 5000 }),
      ],
      NOW,
    );
    const claimed = await store().deliveries.claimDue(NOW, 10, LEASE);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ eventId: 'evt_1', status: 'sending', attempts: 1, claimedUntil: NOW + LEASE });
    expect(await store().deliveries.claimDue(NOW + 1000, 10, LEASE)).toEqual([]);
    await store().deliveries.markSent(claimed[0]!.id, NOW + 10, 204, '');
    const [retry] = await store().deliveries.claimDue(NOW + 5000, 10, LEASE);
    expect(retry?.eventId).toBe('evt_2');
    await store().deliveries.markRetry(retry!.id, NOW + 9000, 'HTTP 503', 503, 'busy');
    expect(await store().deliveries.claimDue(NOW + 8999, 10, LEASE)).toEqual([]);
    const [again] = await store().deliveries.claimDue(NOW + 9000, 10, LEASE);
    expect(again).toMatchObject({ attempts: 2, lastError: 'HTTP 503', lastStatus: 503, lastAnswer: 'busy' });
    await store().deliveries.markDead(again!.id, 'HTTP 400', 400, 'bad embed');
    const log = await store().deliveries.listByChannel(a, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({ status: 'sent', sentAt: NOW + 10, lastStatus: 204 });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({
      status: 'dead',
      lastStatus: 400,
      lastAnswer: 'bad embed',
      attempts: 2,
    });
    // An acknowledgement after the row moved on changes nothing.
    await store().deliveries.markRetry(again!.id, NOW, 'late', null, null);
    expect((await store().deliveries.listByChannel(a, 10)).find((d) => d.eventId === 'evt_2')?.status).toBe('dead');
  });

  it('takes an expired claim again (a crashed sender), not one still held', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().deliveries.enqueue([delivery(a, 'evt_1')], NOW);
    expect(await store().deliveries.claimDue(NOW, 10, LEASE)).toHaveLength(1);
    expect(await store().deliveries.claimDue(NOW + LEASE - 1, 10, LEASE)).toEqual([]);
    const [retaken] = await store().deliveries.claimDue(NOW + LEASE, 10, LEASE);
    expect(retaken).toMatchObject({ eventId: 'evt_1', attempts: 2, claimedUntil: NOW + 2 * LEASE });
  });

  it('keeps the order per channel and monitor: a later event waits while an earlier one is pending or sending', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    await store().deliveries.enqueue(
      [delivery(a, 'evt_1'), delivery(a, 'evt_2'), delivery(b, 'evt_1'), delivery(a, 'evt_3', { monitorId: 'mon_z' })],
      NOW,
    );
    const first = await store().deliveries.claimDue(NOW, 10, LEASE);
    expect(first.map((d) => `${d.channelId}/${d.eventId}`).sort()).toEqual([
      'nch_a/evt_1',
      'nch_a/evt_3',
      'nch_b/evt_1',
    ]);
    const one = first.find((d) => d.channelId === a && d.eventId === 'evt_1')!;
    await store().deliveries.markRetry(one.id, NOW + 1000, 'down', null, null);
    expect(await store().deliveries.claimDue(NOW + 500, 10, LEASE)).toEqual([]);
    const [retried] = await store().deliveries.claimDue(NOW + 1000, 10, LEASE);
    expect(retried?.eventId).toBe('evt_1');
    await store().deliveries.markSent(retried!.id, NOW + 1000, 200, null);
    expect((await store().deliveries.claimDue(NOW + 1000, 10, LEASE)).map((d) => d.eventId)).toEqual(['evt_2']);
  });

  it('keeps the order of a channel’s events that name no monitor (maintenance, incidents): one at a time, oldest first', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    const notice = (channel: string, eventId: string, kind: 'maintenance.started' | 'maintenance.ended') =>
      delivery(channel, eventId, { monitorId: null, kind });
    await store().deliveries.enqueue(
      [
        notice(a, 'evt_start', 'maintenance.started'),
        notice(a, 'evt_end', 'maintenance.ended'),
        notice(b, 'evt_start', 'maintenance.started'),
      ],
      NOW,
    );
    // Two claimers one after the other (two processes, or the poller and a tick): the second gets nothing of channel a.
    const first = await store().deliveries.claimDue(NOW, 10, LEASE);
    expect(first.map((d) => `${d.channelId}/${d.eventId}`).sort()).toEqual(['nch_a/evt_start', 'nch_b/evt_start']);
    expect(await store().deliveries.claimDue(NOW, 10, LEASE)).toEqual([]);
    await store().deliveries.markSent(first.find((d) => d.channelId === a)!.id, NOW + 10, 204, null);
    expect((await store().deliveries.claimDue(NOW + 10, 10, LEASE)).map((d) => d.eventId)).toEqual(['evt_end']);
  });

  it('leaves the channels a claimer has enough of for a later claim, and hands claims back due later (a rate-limited channel)', async () => {
    await addOrganization(store());
    const slow = await addChannel(store(), 'slow');
    const fast = await addChannel(store(), 'fast');
    await store().deliveries.enqueue(
      [delivery(slow, 'evt_1', { monitorId: 'mon_1' }), delivery(slow, 'evt_2', { monitorId: 'mon_2' })],
      NOW,
    );
    await store().deliveries.enqueue([delivery(fast, 'evt_3', { monitorId: 'mon_3' })], NOW + 1);
    const [only] = await store().deliveries.claimDue(NOW + 1, 10, LEASE, [slow]);
    expect(only).toMatchObject({ channelId: fast, eventId: 'evt_3' });
    const claimed = await store().deliveries.claimDue(NOW + 1, 10, LEASE, []);
    expect(claimed.map((d) => d.eventId)).toEqual(['evt_1', 'evt_2']);
    expect(
      await store().deliveries.releaseClaims(
        claimed.map((d) => d.id),
        NOW + 3000,
      ),
    ).toBe(2);
    expect(await store().deliveries.claimDue(NOW + 2999, 10, LEASE)).toEqual([]);
    const again = await store().deliveries.claimDue(NOW + 3000, 10, LEASE);
    expect(again.map((d) => [d.eventId, d.attempts])).toEqual([
      ['evt_1', 1],
      ['evt_2', 1],
    ]);
  });

  it('makes a channel’s retries due at once, not its held or first deliveries, nor another channel’s', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    await store().deliveries.enqueue(
      [
        delivery(a, 'evt_1', { monitorId: 'mon_1' }),
        delivery(a, 'evt_2', { monitorId: 'mon_2', nextAttemptAt: NOW + 60_000 }),
        delivery(b, 'evt_3', { monitorId: 'mon_3' }),
      ],
      NOW,
    );
    for (const d of await store().deliveries.claimDue(NOW, 10, LEASE))
      await store().deliveries.markRetry(d.id, NOW + 30_000, 'refused', null, null);
    expect(await store().deliveries.retryChannelNow(a, NOW + 10)).toBe(1);
    const due = Object.fromEntries(
      (await store().deliveries.listByChannel(a, 10)).map((d) => [d.eventId, d.nextAttemptAt]),
    );
    expect(due).toEqual({ evt_1: NOW + 10, evt_2: NOW + 60_000 });
    expect((await store().deliveries.listByChannel(b, 10))[0]?.nextAttemptAt).toBe(NOW + 30_000);
  });

  it('never gives the same row to two concurrent claimers', async () => {
    await addOrganization(store());
    const rows: NewDelivery[] = [];
    for (let c = 0; c < 4; c++) {
      const id = await addChannel(store(), `c${c}`);
      for (let m = 0; m < 25; m++) rows.push(delivery(id, `evt_${m}`, { monitorId: `mon_${m}` }));
    }
    await store().deliveries.enqueue(rows, NOW);
    const claims = await Promise.all(Array.from({ length: 8 }, () => store().deliveries.claimDue(NOW, 20, LEASE)));
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    const rest = await store().deliveries.claimDue(NOW, 1000, LEASE);
    expect(ids.length + rest.length).toBe(100);
  });

  it('prunes sent and dead deliveries older than the cut-off, never pending ones', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().deliveries.enqueue(
      [
        delivery(a, 'evt_1', { monitorId: 'mon_1' }),
        delivery(a, 'evt_2', { monitorId: 'mon_2' }),
        delivery(a, 'evt_3', { monitorId: 'mon_3' }),
      ],
      NOW,
    );
    const claimed = await store().deliveries.claimDue(NOW, 2, LEASE);
    await store().deliveries.markSent(claimed[0]!.id, NOW, 200, null);
    await store().deliveries.markDead(claimed[1]!.id, 'HTTP 404', 404, null);
    expect(await store().deliveries.prune(NOW, 100)).toBe(0);
    expect(await store().deliveries.prune(NOW + 1, 1)).toBe(1);
    expect(await store().deliveries.prune(NOW + 1, 100)).toBe(1);
    expect((await store().deliveries.listByChannel(a, 10)).map((d) => d.status)).toEqual(['pending']);
  });

  it('releases claims unsent: pending again, due at once, the attempt not counted; other rows untouched', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    await store().deliveries.enqueue(
      [delivery(a, 'evt_1', { monitorId: 'mon_1' }), delivery(a, 'evt_2', { monitorId: 'mon_2' })],
      NOW,
    );
    const claimed = await store().deliveries.claimDue(NOW, 10, LEASE);
    expect(claimed).toHaveLength(2);
    const [one, two] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
    await store().deliveries.markSent(two.id, NOW + 5, 204, null);
    expect(await store().deliveries.releaseClaims([], NOW + 10)).toBe(0);
    expect(await store().deliveries.releaseClaims([one.id, two.id, 'dlv_missing'], NOW + 10)).toBe(1);
    const log = await store().deliveries.listByChannel(a, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: NOW + 10,
      claimedUntil: null,
    });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({ status: 'sent', attempts: 1 });
    // Not waiting for the lease: claimable at once, same event.
    const [again] = await store().deliveries.claimDue(NOW + 10, 10, LEASE);
    expect(again).toMatchObject({ id: one.id, eventId: 'evt_1', attempts: 1, claimedUntil: NOW + 10 + LEASE });
  });

  it('answers the timing rules: how many of some kinds since a time, the latest before one, the latest per monitor', async () => {
    await addOrganization(store());
    const a = await addChannel(store(), 'a');
    const b = await addChannel(store(), 'b');
    const down = (eventId: string, monitorId: string, kind = 'monitor.down') =>
      delivery(a, eventId, { monitorId, kind });
    await store().deliveries.enqueue([down('evt_1', 'mon_a')], NOW);
    await store().deliveries.enqueue([down('evt_2', 'mon_a', 'monitor.recovered'), down('evt_3', 'mon_b')], NOW + 10);
    await store().deliveries.enqueue([down('evt_4', 'mon_a'), delivery(b, 'evt_5', { monitorId: 'mon_a' })], NOW + 20);
    const query = { channelId: a, monitorId: 'mon_a', kinds: ['monitor.down', 'monitor.recovered'] };
    expect(await store().deliveries.stats({ ...query, since: NOW })).toEqual({ count: 3, first: NOW, last: NOW + 20 });
    expect(await store().deliveries.stats({ ...query, since: NOW + 11 })).toEqual({
      count: 1,
      first: NOW + 20,
      last: NOW + 20,
    });
    expect(await store().deliveries.stats({ ...query, kinds: ['monitor.degraded'], since: 0 })).toEqual({
      count: 0,
      first: null,
      last: null,
    });
    const last = await store().deliveries.last(query);
    expect(last?.eventId).toBe('evt_4');
    expect((await store().deliveries.last({ ...query, before: last as NonNullable<typeof last> }))?.eventId).toBe(
      'evt_2',
    );
    expect(
      (
        await store().deliveries.last({
          ...query,
          kinds: ['monitor.down'],
          before: { createdAt: NOW + 20, id: 'dlv_0' },
        })
      )?.eventId,
    ).toBe('evt_1');
    const latest = await store().deliveries.latestPerMonitor(a, ['monitor.down']);
    expect(latest.map((d) => [d.monitorId, d.eventId])).toEqual([
      ['mon_a', 'evt_4'],
      ['mon_b', 'evt_3'],
    ]);
    expect(await store().deliveries.latestPerMonitor(a, [])).toEqual([]);
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
    await store().deliveries.record(row);
    expect(await store().deliveries.listByChannel(a, 10)).toEqual([row]);
    expect(await store().deliveries.claimDue(NOW + 1000, 10, LEASE)).toEqual([]);
  });
});
