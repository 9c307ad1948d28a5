// The dispatcher's lanes against a real local HTTP receiver, on every dialect: channels independent, several sends at
// once per channel up to its maxInFlight with each monitor's in order, a 429 pausing the whole channel, a backlog not
// crowding others out, claims handed back before they lapse, retries sent at once when the receiver is back, and each
// organization's target policy.
import { afterEach, expect, it } from 'vitest';
import { addOrganization, describeStore, NOW, OTHER_ORG } from '../../../test/contracts/store-fixtures.js';
import {
  addChannel,
  cleanUp,
  delivery,
  freePort,
  receiver,
  setup,
  statusOf,
  waitFor,
} from '../../../test/dispatcher-harness.js';

afterEach(cleanUp);

describeStore('notification dispatcher lanes', (store) => {
  it('does not let a slow channel delay another', async () => {
    await addOrganization(store());
    const slow = await receiver();
    let release: () => void = () => {};
    slow.handle = (_req, res) => {
      release = () => res.writeHead(204).end();
    };
    const fast = await receiver();
    const a = await addChannel(store(), 'slow', slow.url);
    const b = await addChannel(store(), 'fast', fast.url);
    await store().deliveries.enqueue([delivery(a, 'evt_1'), delivery(b, 'evt_1')], NOW);
    const { dispatcher } = setup(store());
    const round = dispatcher.tick();
    for (let i = 0; i < 200 && (await statusOf(store(), b))[0] !== 'sent'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await statusOf(store(), b)).toEqual(['sent']);
    expect(await statusOf(store(), a)).toEqual(['sending']);
    while (slow.got.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await round;
    expect(await statusOf(store(), a)).toEqual(['sent']);
  });

  it('sends up to the channel’s maxInFlight at once, each monitor’s events one after another in order', async () => {
    await addOrganization(store());
    const r = await receiver();
    let active = 0;
    let most = 0;
    r.handle = (_req, res) => {
      active += 1;
      most = Math.max(most, active);
      setTimeout(() => {
        active -= 1;
        res.writeHead(204).end();
      }, 30);
    };
    const ch = await addChannel(store(), 'wide', r.url, 'wide-hook');
    const monitors = Array.from({ length: 6 }, (_, i) => `mon_${i}`);
    await store().deliveries.enqueue(
      monitors.map((m) => delivery(ch, `${m}_1`, m)),
      NOW,
    );
    await store().deliveries.enqueue(
      monitors.map((m) => delivery(ch, `${m}_2`, m)),
      NOW + 1,
    );
    const { dispatcher } = setup(store());
    for (let i = 0; i < 3; i++) await dispatcher.tick();
    expect(r.got).toHaveLength(12);
    expect(most).toBe(4);
    const order = r.got.map((g) => g.id);
    for (const m of monitors) expect(order.indexOf(`${m}_1`)).toBeLessThan(order.indexOf(`${m}_2`));
    expect(new Set(await statusOf(store(), ch))).toEqual(new Set(['sent']));
  });

  it('pauses the whole channel on a 429 until its Retry-After, and no other channel', async () => {
    await addOrganization(store());
    const limited = await receiver();
    let answered = 0;
    limited.handle = (_req, res) => {
      answered += 1;
      if (answered === 1) res.writeHead(429, { 'retry-after': '3' }).end();
      else res.writeHead(204).end();
    };
    const other = await receiver();
    const a = await addChannel(store(), 'limited', limited.url);
    const b = await addChannel(store(), 'other', other.url);
    await store().deliveries.enqueue(
      [delivery(a, 'evt_1', 'mon_1'), delivery(a, 'evt_2', 'mon_2'), delivery(b, 'evt_3', 'mon_3')],
      NOW,
    );
    const { clock, dispatcher } = setup(store());
    await dispatcher.tick();
    expect(limited.got.map((g) => g.id)).toEqual(['evt_1']);
    expect(other.got.map((g) => g.id)).toEqual(['evt_3']);
    // Handed back unsent, due when the pause ends: no attempt counted.
    const waiting = (await store().deliveries.listByChannel(a, 10)).find((d) => d.eventId === 'evt_2');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: NOW + 3000 });
    clock.t = NOW + 2999;
    await dispatcher.tick();
    expect(limited.got).toHaveLength(1);
    clock.t = NOW + 3000;
    await dispatcher.tick();
    expect(limited.got.map((g) => g.id)).toEqual(['evt_1', 'evt_1', 'evt_2']);
    expect(await statusOf(store(), a)).toEqual(['sent', 'sent']);
  });

  it('does not let a slow channel’s backlog crowd another out of the claims', async () => {
    await addOrganization(store());
    const slow = await receiver();
    const answers: (() => void)[] = [];
    slow.handle = (_req, res) => answers.push(() => res.writeHead(204).end());
    const fast = await receiver();
    const a = await addChannel(store(), 'slow', slow.url);
    const b = await addChannel(store(), 'fast', fast.url);
    await store().deliveries.enqueue(
      Array.from({ length: 10 }, (_, i) => delivery(a, `evt_${i}`, `mon_${i}`)),
      NOW,
    );
    await store().deliveries.enqueue([delivery(b, 'evt_fast', 'mon_x')], NOW + 1);
    const { dispatcher } = setup(store(), { maxHeld: 6, maxHeldPerChannel: 3, pollMs: 20 });
    dispatcher.start();
    await waitFor(async () => (await statusOf(store(), b))[0] === 'sent');
    expect(await statusOf(store(), b)).toEqual(['sent']);
    expect(slow.got).toHaveLength(1);
    for (const answer of answers) answer();
  });

  it('hands a delivery back unsent when its claim would lapse before its send could finish', async () => {
    await addOrganization(store());
    const r = await receiver();
    let answer: () => void = () => {};
    r.handle = (_req, res) => {
      answer = () => res.writeHead(204).end();
    };
    const ch = await addChannel(store(), 'a', r.url);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const { clock, dispatcher } = setup(store(), { leaseMs: 60_000 });
    const round = dispatcher.tick();
    await waitFor(() => r.got.length > 0);
    // The first send took most of the lease: the second could not finish (2 s) before its claim lapses at NOW + 60 s.
    clock.t = NOW + 58_500;
    answer();
    await round;
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    const handedBack = (await store().deliveries.listByChannel(ch, 10)).find((d) => d.eventId === 'evt_2');
    expect(handedBack).toMatchObject({
      status: 'pending',
      attempts: 0,
      claimedUntil: null,
      nextAttemptAt: NOW + 58_500,
    });
    r.handle = (_req, res) => res.writeHead(204).end();
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
    expect(await statusOf(store(), ch)).toEqual(['sent', 'sent']);
  });

  it('sends a channel’s other retries at once when one goes through after failing (the receiver is back)', async () => {
    await addOrganization(store());
    const port = await freePort();
    const ch = await addChannel(store(), 'a', `http://127.0.0.1:${port}/hook`);
    await store().deliveries.enqueue([delivery(ch, 'evt_1', 'mon_1'), delivery(ch, 'evt_2', 'mon_2')], NOW);
    const draws = [0.1, 0.9];
    const { clock, dispatcher } = setup(store(), {}, () => draws.shift() ?? 0.5);
    await dispatcher.tick();
    const due = async () =>
      Object.fromEntries((await store().deliveries.listByChannel(ch, 10)).map((d) => [d.eventId, d.nextAttemptAt]));
    expect(await due()).toEqual({ evt_1: NOW + 500, evt_2: NOW + 4500 });
    const r = await receiver(port);
    clock.t = NOW + 500;
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1']);
    expect((await due()).evt_2).toBe(NOW + 500);
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_1', 'evt_2']);
  });

  it("sends each delivery under its organization's target policy: refused ones are dead, having reached nothing", async () => {
    // Two organizations under `auto`: each without a setting of its own is denied private addresses; Globex allows them.
    await addOrganization(store());
    await store().organizations.upsert({ ...OTHER_ORG, probePrivateTargets: 'allow' }, NOW);
    const r = await receiver();
    const denied = await addChannel(store(), 'a', r.url);
    const allowedId = 'nch_b';
    await store().channels.insert(
      {
        id: allowedId,
        organizationId: OTHER_ORG.id,
        key: 'b',
        name: 'b',
        type: 'test-hook',
        config: { url: r.url },
        rules: {},
        enabled: true,
        managedBy: 'api',
      },
      NOW,
    );
    await store().deliveries.enqueue(
      [delivery(denied, 'evt_denied'), { ...delivery(allowedId, 'evt_allowed'), organizationId: OTHER_ORG.id }],
      NOW,
    );
    const { dispatcher } = setup(store());
    await dispatcher.tick();
    expect(r.got.map((g) => g.id)).toEqual(['evt_allowed']);
    const [refused] = await store().deliveries.listByChannel(denied, 10);
    expect(refused).toMatchObject({
      status: 'dead',
      lastStatus: null,
      lastAnswer: null,
      lastError: expect.stringMatching(/^refused by policy: 127\.0\.0\.1 is a loopback address;/),
    });
  });
});
