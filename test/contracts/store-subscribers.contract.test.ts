// The page subscribers repository on every dialect: the double opt-in's rows, the caps' counts, expiry, and the outbox
// rows of subscribers beside the channels' (one per event and target, in order per subscriber).
import { expect, it } from 'vitest';
import type { NewDelivery } from '../../src/domain/notification.js';
import type { PageSubscriber } from '../../src/domain/subscriber.js';
import type { Store } from '../../src/store/index.js';
import { addOrganization, addPage, describeStore, NOW, ORG, rejectionOf } from './store-fixtures.js';

const HOUR = 3_600_000;

function subscriber(id: string, overrides: Partial<PageSubscriber> = {}): PageSubscriber {
  return {
    id,
    organizationId: ORG.id,
    pageId: 'pg_status',
    kind: 'email',
    format: 'warden',
    address: `${id}@example.test`,
    secret: null,
    confirmTokenHash: `hash-${id}`,
    unsubscribeToken: `${id}.unsubscribe`,
    confirmedAt: null,
    expiresAt: NOW + 48 * HOUR,
    requestedBy: '203.0.113.7',
    createdAt: NOW,
    ...overrides,
  };
}

async function setUp(store: Store): Promise<void> {
  await addOrganization(store);
  await addPage(store, 'status');
  await addPage(store, 'other');
}

let seq = 0;
function delivery(target: { channelId: string } | { subscriberId: string }, eventId: string): NewDelivery {
  seq += 1;
  return {
    id: `dlv_${String(seq).padStart(6, '0')}`,
    eventId,
    channelId: 'channelId' in target ? target.channelId : null,
    subscriberId: 'subscriberId' in target ? target.subscriberId : null,
    organizationId: ORG.id,
    monitorId: null,
    kind: 'incident.created',
    event: JSON.stringify({ id: eventId }),
    nextAttemptAt: NOW,
  };
}

describeStore('store subscribers', (store) => {
  it('keeps what a community webhook gets (Discord or Slack), and lists a Slack one awaiting approval as pending', async () => {
    await setUp(store());
    const community = { kind: 'webhook', secret: null, confirmTokenHash: null, expiresAt: null } as const;
    await store().subscribers.insert(
      subscriber('sub_d', { ...community, format: 'discord', address: 'https://discord.test/api/webhooks/1/t' }),
    );
    await store().subscribers.insert(
      subscriber('sub_s', { ...community, format: 'slack', address: 'https://hooks.slack.test/services/T/B/x' }),
    );
    expect(await store().subscribers.findById('sub_d')).toMatchObject({ format: 'discord', confirmedAt: null });
    expect(await store().subscribers.counts('pg_status')).toEqual({ confirmed: 0, pending: 2 });
    // Awaiting an admin, not a link: it never expires on its own.
    expect(await store().subscribers.pruneExpired(NOW + 1000 * HOUR, 10)).toBe(0);
    expect(await store().subscribers.confirm('sub_s', NOW)).toBe(true);
    expect((await store().subscribers.listConfirmed('pg_status')).map((s) => [s.id, s.format])).toEqual([
      ['sub_s', 'slack'],
    ]);
  });

  it('keeps one subscriber per page, kind and address, finds it by id or address, and confirms it once', async () => {
    await setUp(store());
    await store().subscribers.insert(subscriber('sub_a'));
    await store().subscribers.insert(subscriber('sub_b', { pageId: 'pg_other', address: 'sub_a@example.test' }));
    await store().subscribers.insert(
      subscriber('sub_w', {
        kind: 'webhook',
        address: 'https://hooks.test/x',
        secret: 'whsec_x',
        confirmTokenHash: null,
        confirmedAt: NOW,
        expiresAt: null,
      }),
    );
    const duplicate = await rejectionOf(
      store().subscribers.insert(subscriber('sub_dup', { address: 'sub_a@example.test' })),
    );
    expect(store().isUniqueViolation(duplicate)).toBe(true);
    expect(await store().subscribers.findById('sub_a')).toEqual(subscriber('sub_a'));
    expect((await store().subscribers.findByAddress('pg_status', 'email', 'sub_a@example.test'))?.id).toBe('sub_a');
    expect(await store().subscribers.findByAddress('pg_status', 'webhook', 'sub_a@example.test')).toBeUndefined();
    expect(await store().subscribers.counts('pg_status')).toEqual({ confirmed: 1, pending: 1 });

    expect(await store().subscribers.confirm('sub_a', NOW + 5)).toBe(true);
    expect(await store().subscribers.confirm('sub_a', NOW + 6)).toBe(false);
    expect(await store().subscribers.findById('sub_a')).toMatchObject({
      confirmedAt: NOW + 5,
      confirmTokenHash: null,
      expiresAt: null,
    });
    expect((await store().subscribers.listConfirmed('pg_status')).map((s) => s.id)).toEqual(['sub_a', 'sub_w']);
    await store().subscribers.setSecret('sub_w', 'whsec_y');
    expect((await store().subscribers.findById('sub_w'))?.secret).toBe('whsec_y');
  });

  it('renews a pending subscription only, and counts the pending ones a client asked for', async () => {
    await setUp(store());
    await store().subscribers.insert(subscriber('sub_a'));
    await store().subscribers.insert(subscriber('sub_b', { pageId: 'pg_other' }));
    await store().subscribers.insert(subscriber('sub_c', { requestedBy: '198.51.100.1' }));
    expect(await store().subscribers.countPendingRequestedBy('203.0.113.7')).toBe(2);
    await store().subscribers.renewPending('sub_a', {
      confirmTokenHash: 'hash-new',
      expiresAt: NOW + 100 * HOUR,
      requestedBy: '198.51.100.1',
      createdAt: NOW + HOUR,
    });
    expect(await store().subscribers.findById('sub_a')).toMatchObject({
      confirmTokenHash: 'hash-new',
      expiresAt: NOW + 100 * HOUR,
      requestedBy: '198.51.100.1',
      createdAt: NOW + HOUR,
    });
    expect(await store().subscribers.countPendingRequestedBy('198.51.100.1')).toBe(2);
    await store().subscribers.confirm('sub_c', NOW);
    await store().subscribers.renewPending('sub_c', {
      confirmTokenHash: 'again',
      expiresAt: NOW,
      requestedBy: null,
      createdAt: NOW,
    });
    expect(await store().subscribers.findById('sub_c')).toMatchObject({
      confirmTokenHash: null,
      requestedBy: '198.51.100.1',
    });
    expect(await store().subscribers.countPendingRequestedBy('198.51.100.1')).toBe(1);
  });

  it('lists a page by id a page at a time, and prunes only unconfirmed subscriptions past their expiry, in batches', async () => {
    await setUp(store());
    for (const id of ['sub_1', 'sub_2', 'sub_3', 'sub_4'])
      await store().subscribers.insert(subscriber(id, { expiresAt: NOW + HOUR }));
    await store().subscribers.insert(subscriber('sub_5', { expiresAt: NOW + 10 * HOUR }));
    await store().subscribers.confirm('sub_1', NOW);
    expect((await store().subscribers.list('pg_status', { limit: 2 })).map((s) => s.id)).toEqual(['sub_1', 'sub_2']);
    expect((await store().subscribers.list('pg_status', { limit: 10, after: 'sub_2' })).map((s) => s.id)).toEqual([
      'sub_3',
      'sub_4',
      'sub_5',
    ]);
    expect(await store().subscribers.pruneExpired(NOW + HOUR, 10)).toBe(0);
    expect(await store().subscribers.pruneExpired(NOW + HOUR + 1, 2)).toBe(2);
    expect(await store().subscribers.pruneExpired(NOW + HOUR + 1, 2)).toBe(1);
    expect((await store().subscribers.list('pg_status', { limit: 10 })).map((s) => s.id)).toEqual(['sub_1', 'sub_5']);
  });

  it('deletes a subscriber with its deliveries, and a page with its subscribers', async () => {
    await setUp(store());
    await store().subscribers.insert(
      subscriber('sub_a', { confirmedAt: NOW, confirmTokenHash: null, expiresAt: null }),
    );
    await store().subscribers.insert(subscriber('sub_b', { pageId: 'pg_other' }));
    expect(await store().deliveries.enqueue([delivery({ subscriberId: 'sub_a' }, 'evt_1')], NOW)).toBe(1);
    expect(await store().subscribers.delete('sub_a')).toBe(true);
    expect(await store().subscribers.delete('sub_a')).toBe(false);
    expect(await store().deliveries.claimDue(NOW, 10, 30_000)).toEqual([]);
    await store().pages.delete('pg_other');
    expect(await store().subscribers.findById('sub_b')).toBeUndefined();
  });

  it("enqueues a subscriber's and a channel's delivery of one event together, each once", async () => {
    await setUp(store());
    await store().channels.insert(
      {
        id: 'nch_a',
        organizationId: ORG.id,
        key: 'a',
        name: 'A',
        type: 'webhook',
        config: { url: 'http://127.0.0.1:1/' },
        rules: {},
        enabled: true,
        managedBy: 'api',
      },
      NOW,
    );
    for (const id of ['sub_a', 'sub_b'])
      await store().subscribers.insert(subscriber(id, { confirmedAt: NOW, confirmTokenHash: null, expiresAt: null }));
    const batch = [
      delivery({ channelId: 'nch_a' }, 'evt_1'),
      delivery({ subscriberId: 'sub_a' }, 'evt_1'),
      delivery({ subscriberId: 'sub_b' }, 'evt_1'),
    ];
    expect(await store().deliveries.enqueue(batch, NOW)).toBe(3);
    // Replayed (a retry of the producer's commit): nothing new, on either index.
    expect(
      await store().deliveries.enqueue(
        [
          delivery({ subscriberId: 'sub_a' }, 'evt_1'),
          delivery({ channelId: 'nch_a' }, 'evt_1'),
          delivery({ subscriberId: 'sub_a' }, 'evt_2'),
        ],
        NOW,
      ),
    ).toBe(1);
    const claimed = await store().deliveries.claimDue(NOW, 10, 30_000);
    expect(claimed.map((d) => `${d.eventId}:${d.channelId ?? d.subscriberId}`).sort()).toEqual([
      'evt_1:nch_a',
      'evt_1:sub_a',
      'evt_1:sub_b',
    ]);
  });

  it("holds a subscriber's later delivery while an earlier one waits or is being sent", async () => {
    await setUp(store());
    for (const id of ['sub_a', 'sub_b'])
      await store().subscribers.insert(subscriber(id, { confirmedAt: NOW, confirmTokenHash: null, expiresAt: null }));
    await store().deliveries.enqueue([delivery({ subscriberId: 'sub_a' }, 'evt_1')], NOW);
    await store().deliveries.enqueue(
      [delivery({ subscriberId: 'sub_a' }, 'evt_2'), delivery({ subscriberId: 'sub_b' }, 'evt_2')],
      NOW + 1,
    );
    const first = await store().deliveries.claimDue(NOW + 1, 10, 30_000);
    expect(first.map((d) => `${d.eventId}:${d.subscriberId}`).sort()).toEqual(['evt_1:sub_a', 'evt_2:sub_b']);
    expect(await store().deliveries.claimDue(NOW + 2, 10, 30_000)).toEqual([]);
    await store().deliveries.markSent(first.find((d) => d.subscriberId === 'sub_a')!.id, NOW + 3, 250, '');
    expect(
      (await store().deliveries.claimDue(NOW + 4, 10, 30_000)).map((d) => `${d.eventId}:${d.subscriberId}`),
    ).toEqual(['evt_2:sub_a']);
  });
});
