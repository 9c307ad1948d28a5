// The lane scheduler alone: no store, no clock, no timers. What a user would notice through it: a monitor's alerts
// arriving in order, one channel's backlog or 429 not holding up another, and no delivery sent twice by one process.
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../domain/notification.js';
import { createLaneScheduler, laneOf, targetKeyOf } from './lanes.js';

const LIMITS = { maxHeld: 8, maxHeldPerChannel: 4, concurrency: 3 };
let n = 0;
function delivery(channelId: string | null, monitorId: string | null, subscriberId: string | null = null): Delivery {
  n += 1;
  const id = `dlv_${String(n).padStart(4, '0')}`;
  return {
    id,
    eventId: `evt_${n}`,
    channelId,
    subscriberId,
    organizationId: 'org_a',
    monitorId,
    kind: 'monitor.down',
    event: '{}',
    status: 'sending',
    attempts: 1,
    nextAttemptAt: 0,
    claimedUntil: 60_000,
    lastError: null,
    lastStatus: null,
    lastAnswer: null,
    createdAt: 0,
    sentAt: null,
  };
}
const ids = (starts: { delivery: Delivery }[]) => starts.map((s) => s.delivery.id);

describe('lane scheduler', () => {
  it('names a lane by its target (a channel, or a page subscriber) and its monitor', () => {
    expect(targetKeyOf({ channelId: 'nch_a', subscriberId: null })).toBe('nch_a');
    expect(targetKeyOf({ channelId: null, subscriberId: 'sub_1' })).toBe('subscriber:sub_1');
    expect(laneOf({ channelId: 'nch_a', subscriberId: null, monitorId: 'mon_1' })).toBe('nch_a|mon_1');
    expect(laneOf({ channelId: 'nch_a', subscriberId: null, monitorId: null })).toBe('nch_a|');
  });

  it('sends one delivery per lane at a time, in claim order: a monitor’s events arrive in order', () => {
    const lanes = createLaneScheduler({ ...LIMITS, concurrency: 10 });
    lanes.limit('nch_a', 10);
    const [first, second, other] = [delivery('nch_a', 'mon_1'), delivery('nch_a', 'mon_1'), delivery('nch_a', 'mon_2')];
    expect(lanes.add([first, second, other] as Delivery[])).toBe(3);
    const round = lanes.next(0, 0);
    expect(ids(round.starts)).toEqual([first?.id, other?.id]);
    expect(ids(lanes.next(0, 2).starts)).toEqual([]);
    lanes.finish(round.starts[0] as (typeof round.starts)[0], true);
    expect(ids(lanes.next(0, 1).starts)).toEqual([second?.id]);
  });

  it('holds a target to one send in flight until its limit is learnt, then to that limit, and all to the cap', () => {
    const lanes = createLaneScheduler(LIMITS);
    lanes.add(['mon_1', 'mon_2', 'mon_3', 'mon_4'].map((m) => delivery('nch_a', m)));
    expect(lanes.next(0, 0).starts).toHaveLength(1);
    lanes.limit('nch_a', 0); // never below one
    expect(lanes.next(0, 1).starts).toHaveLength(0);
    lanes.limit('nch_a', 2);
    expect(lanes.next(0, 1).starts).toHaveLength(1);
    lanes.limit('nch_a', 10);
    // Two in flight of a cap of three: one more.
    expect(lanes.next(0, 2).starts).toHaveLength(1);
  });

  it('does not queue a delivery it already holds (a lapsed claim re-taken by this process) and counts it once', () => {
    const lanes = createLaneScheduler(LIMITS);
    const d = delivery('nch_a', 'mon_1');
    expect(lanes.add([d])).toBe(1);
    expect(lanes.add([d])).toBe(0);
    expect(lanes.held()).toBe(1);
    expect(lanes.held('nch_a')).toBe(1);
  });

  it('hands a paused target’s waiting deliveries back, due when the pause ends, and lets other targets send', () => {
    const lanes = createLaneScheduler({ ...LIMITS, concurrency: 10 });
    lanes.limit('nch_a', 4);
    const a = [delivery('nch_a', 'mon_1'), delivery('nch_a', 'mon_2')];
    const b = delivery('nch_b', 'mon_1');
    lanes.add([...a, b]);
    lanes.pause('nch_a', 5_000);
    lanes.pause('nch_a', 3_000); // an earlier pause does not shorten it
    const round = lanes.next(1_000, 0);
    expect(ids(round.starts)).toEqual([b.id]);
    expect(round.deferrals).toEqual([{ target: 'nch_a', until: 5_000, ids: a.map((d) => d.id) }]);
    expect(lanes.held('nch_a')).toBe(0);
    // Once the pause is over, the target sends again.
    const later = delivery('nch_a', 'mon_1');
    lanes.add([later]);
    expect(ids(lanes.next(5_000, 1).starts)).toEqual([later.id]);
  });

  it('asks for at most one channel’s share per claim and leaves out channels that hold enough, never subscribers', () => {
    const lanes = createLaneScheduler(LIMITS);
    expect(lanes.room()).toEqual({ room: 4, skipChannels: [] });
    lanes.add(['1', '2', '3', '4'].map((m) => delivery('nch_a', `mon_${m}`)));
    lanes.add(['1', '2', '3', '4'].map((m) => delivery(null, `mon_${m}`, 'sub_1')));
    expect(lanes.room()).toEqual({ room: 0, skipChannels: ['nch_a'] });
  });

  it('keeps a send given up at stop held, and drains every held id for its claim to be handed back', () => {
    const lanes = createLaneScheduler(LIMITS);
    const [sent, abandoned, waiting] = [
      delivery('nch_a', 'mon_1'),
      delivery('nch_b', 'mon_1'),
      delivery('nch_a', 'mon_1'),
    ];
    lanes.add([sent, abandoned, waiting] as Delivery[]);
    const { starts } = lanes.next(0, 0);
    expect(ids(starts)).toEqual([sent?.id, abandoned?.id]);
    lanes.finish(starts[0] as (typeof starts)[0], true);
    lanes.finish(starts[1] as (typeof starts)[0], false);
    expect(lanes.drain().sort()).toEqual([abandoned?.id, waiting?.id].sort());
    expect(lanes.held()).toBe(0);
    expect(lanes.next(0, 0).starts).toEqual([]);
  });
});
