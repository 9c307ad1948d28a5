// The dispatcher against a real local HTTP receiver, on every dialect: sent once, Retry-After honoured, dead with the
// answer, a receiver down then up gets everything in order, a crash mid-send re-sends the same event, and a stop hands
// back what it did not finish. Lanes, limits and pauses: dispatcher-lanes.test.ts.
import { afterEach, expect, it } from 'vitest';
import { addOrganization, describeStore, NOW, ORG } from '../../../test/contracts/store-fixtures.js';
import {
  addChannel,
  cleanUp,
  delivery,
  freePort,
  killable,
  receiver,
  setup,
  statusOf,
  waitFor,
} from '../../../test/dispatcher-harness.js';

afterEach(cleanUp);

describeStore('notification dispatcher', (store) => {
  it('sends a delivery once', async () => {
    await addOrganization(store());
    const r = await receiver();
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    expect(r.got[0]?.body.id).toBe('evt_1');
    expect(await statusOf(store(), ch)).toEqual(['sent']);
  });

  it('a tick waits for the sends of a claim that a commit’s wake has under way', async () => {
    await addOrganization(store());
    const r = await receiver();
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    // The wake's claim takes the delivery, then comes back late (a busy database): the tick's own claim finds nothing.
    const deliveries = store().deliveries;
    let calls = 0;
    const slowFirst: typeof deliveries.claimDue = async (...args) => {
      const claimed = await deliveries.claimDue(...args);
      if (++calls === 1) await new Promise((resolve) => setTimeout(resolve, 200));
      return claimed;
    };
    const { dispatcher } = setup({ ...store(), deliveries: { ...deliveries, claimDue: slowFirst } });
    dispatcher.wake();
    await new Promise(setImmediate);
    await dispatcher.tick();
    expect(calls).toBe(2);
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    expect(await statusOf(store(), ch)).toEqual(['sent']);
  });

  it('honours 429 Retry-After: nothing before 3 s, then sent', async () => {
    await addOrganization(store());
    const r = await receiver();
    let first = true;
    r.handle = (_req, res) => {
      if (first) res.writeHead(429, { 'retry-after': '3' }).end('slow down');
      else res.writeHead(200).end('ok');
      first = false;
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    clock.t = NOW + 2999;
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    clock.t = NOW + 3000;
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastStatus: 200 });
  });

  it('marks a 400 dead with the answer kept', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = (_req, res) => res.writeHead(400).end('{"message":"Invalid Form Body"}');
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    clock.t += 3_600_000;
    await dispatcher.tick();
    expect(r.got).toHaveLength(1);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({
      status: 'dead',
      lastStatus: 400,
      lastAnswer: '{"message":"Invalid Form Body"}',
      lastError: 'HTTP 400',
    });
  });

  it('marks a delivery dead when the channel config no longer parses', async () => {
    await addOrganization(store());
    const id = 'nch_bad';
    await store().channels.insert(
      {
        id,
        organizationId: ORG.id,
        key: 'bad',
        name: 'bad',
        type: 'test-hook',
        config: { nope: 1 },
        rules: {},
        enabled: true,
        managedBy: 'api',
      },
      NOW,
    );
    await store().deliveries.enqueue([delivery(id, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    const [row] = await store().deliveries.listByChannel(id, 1);
    expect(row?.status).toBe('dead');
    expect(row?.lastError).toMatch(/invalid channel config/);
  });

  it('delivers to a receiver that was down once it is up, in order per monitor', async () => {
    await addOrganization(store());
    const port = await freePort();
    const ch = await addChannel(store(), 'a', `http://127.0.0.1:${port}/hook`);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    await store().deliveries.enqueue([delivery(ch, 'evt_2')], NOW + 1);
    const { clock, dispatcher } = setup(store());
    for (let i = 0; i < 3; i++) {
      await dispatcher.tick();
      clock.t += 60_000;
    }
    expect(await statusOf(store(), ch)).toEqual(['pending', 'pending']);
    const r = await receiver(port);
    for (let i = 0; i < 6 && (await statusOf(store(), ch)).some((s) => s !== 'sent'); i++) {
      clock.t += 3_600_000;
      await dispatcher.tick();
    }
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
    expect(await statusOf(store(), ch)).toEqual(['sent', 'sent']);
  });

  it('sends again with the same event id after a crash mid-send (the claim lapses)', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = () => {}; // never answers: the sender is "killed" mid-send
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const first = setup(killable(store()), { leaseMs: 60_000, stopGraceMs: 20 });
    const sending = first.dispatcher.tick();
    while (r.got.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await first.dispatcher.stop();
    await sending;
    expect(await statusOf(store(), ch)).toEqual(['sending']);
    r.handle = (_req, res) => res.writeHead(204).end();
    const second = setup(store(), { leaseMs: 60_000 });
    second.clock.t = NOW + 59_999;
    await second.dispatcher.tick();
    expect(r.got).toHaveLength(1);
    second.clock.t = NOW + 60_000;
    await second.dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    expect(await statusOf(store(), ch)).toEqual(['sent']);
  });

  it('releases the claim of a send unfinished at stop: a new dispatcher sends it at once, same event id', async () => {
    await addOrganization(store());
    const r = await receiver();
    r.handle = () => {}; // slower than the stop grace
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1')], NOW);
    const first = setup(store(), { stopGraceMs: 50 });
    const sending = first.dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    await first.dispatcher.stop();
    await sending;
    const [released] = await store().deliveries.listByChannel(ch, 1);
    expect(released).toMatchObject({ status: 'pending', attempts: 0, claimedUntil: null, nextAttemptAt: NOW });
    r.handle = (_req, res) => res.writeHead(204).end();
    // Same instant on the injected clock: no waiting for the 5-minute lease.
    const second = setup(store());
    await second.dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1']);
    const [row] = await store().deliveries.listByChannel(ch, 1);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('acknowledges a send that finishes within the stop grace and releases those queued behind it', async () => {
    await addOrganization(store());
    const r = await receiver();
    let answer: () => void = () => {};
    r.handle = (_req, res) => {
      answer = () => res.writeHead(204).end();
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const { dispatcher } = setup(store(), { stopGraceMs: 5000 });
    const sending = dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    const stopped = dispatcher.stop();
    setTimeout(() => answer(), 50);
    await stopped;
    await sending;
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    const log = await store().deliveries.listByChannel(ch, 10);
    expect(log.find((d) => d.eventId === 'evt_1')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(log.find((d) => d.eventId === 'evt_2')).toMatchObject({
      status: 'pending',
      attempts: 0,
      claimedUntil: null,
    });
  });
});
