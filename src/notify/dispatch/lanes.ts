// The dispatcher's lane scheduler: which claimed delivery is sent next. Pure and synchronous (no store, no clock, no
// timers): the loop hands it what it claimed and the time, it answers what to start and what to hand back. A lane is a
// target (a channel, or a page subscriber) and a monitor: its deliveries go one at a time, in claim order, so each
// receiver gets a monitor's events in order. A target has at most its limit of sends in flight (its definition's
// maxInFlight, learnt on its first attempt: one until then), and a 429 pauses the whole target until its Retry-After.
import type { Delivery } from '../../domain/notification.js';

/** Where a delivery goes: a channel, or a page subscriber. Its sends share the target's limit and its pauses. */
export function targetKeyOf(delivery: Pick<Delivery, 'channelId' | 'subscriberId'>): string {
  return delivery.channelId ?? `subscriber:${delivery.subscriberId}`;
}

/** A target and a monitor: the deliveries sent one at a time, in claim order. */
export function laneOf(delivery: Pick<Delivery, 'channelId' | 'subscriberId' | 'monitorId'>): string {
  return `${targetKeyOf(delivery)}|${delivery.monitorId ?? ''}`;
}

export interface LaneLimits {
  /** Deliveries held at most (in flight, or waiting for their lane or their target's room). */
  maxHeld: number;
  /** Deliveries held at most for one channel: past it, claims leave the channel out. */
  maxHeldPerChannel: number;
  /** Sends in flight at most, across targets. */
  concurrency: number;
}

/** A send to start now. */
export interface Start {
  lane: string;
  target: string;
  delivery: Delivery;
}

/** A paused target's waiting deliveries, to hand back due when its pause ends (no attempt counted). */
export interface Deferral {
  target: string;
  until: number;
  ids: string[];
}

export interface LaneScheduler {
  /** How many more may be claimed, and the channels to leave out of the claim (they have enough held). */
  room(): { room: number; skipChannels: string[] };
  /** Queues what a claim took (a delivery already held, a lapsed claim re-taken here, is left out); returns how many were new. */
  add(claimed: readonly Delivery[]): number;
  /** What to start now, oldest lane first, with `running` sends in flight; paused targets' queues are handed back. */
  next(now: number, running: number): { starts: Start[]; deferrals: Deferral[] };
  /** A send ended: its lane and a place of its target are free; `release` false keeps it held (given up at stop). */
  finish(start: Start, release: boolean): void;
  /** Learns how many sends a target may have in flight (at least one). */
  limit(target: string, inFlight: number): void;
  /** Pauses a target until `until` (a later pause wins). */
  pause(target: string, until: number): void;
  /** Deliveries held, in all and for one target. */
  held(target?: string): number;
  /** Forgets everything queued and held; returns the ids held (their claims to hand back). */
  drain(): string[];
}

export function createLaneScheduler(limits: LaneLimits): LaneScheduler {
  /** Held here and not yet recorded, by id, with their target: a lapsed claim re-taken by this process is not sent twice. */
  const heldIds = new Map<string, string>();
  const heldPerTarget = new Map<string, number>();
  /** Per lane: the deliveries waiting behind the one in flight, in claim order. */
  const queues = new Map<string, Delivery[]>();
  /** Lanes with a send in flight. */
  const busy = new Set<string>();
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const pausedUntil = new Map<string, number>();

  const count = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };

  function unhold(id: string): void {
    const target = heldIds.get(id);
    if (target === undefined) return;
    heldIds.delete(id);
    count(heldPerTarget, target, -1);
  }

  function defer(target: string, until: number): Deferral | null {
    const ids: string[] = [];
    for (const [lane, queue] of queues) {
      if (queue[0] === undefined || targetKeyOf(queue[0]) !== target) continue;
      for (const delivery of queue) ids.push(delivery.id);
      queues.delete(lane);
    }
    for (const id of ids) unhold(id);
    return ids.length > 0 ? { target, until, ids } : null;
  }

  return {
    room() {
      // At most one channel's share per claim: one with a backlog fills up and is left out of the next claim.
      const room = Math.min(limits.maxHeld - heldIds.size, limits.maxHeldPerChannel);
      const skipChannels = [...heldPerTarget]
        .filter(([target, n]) => n >= limits.maxHeldPerChannel && !target.startsWith('subscriber:'))
        .map(([target]) => target);
      return { room, skipChannels };
    },
    add(claimed) {
      let added = 0;
      for (const delivery of claimed) {
        if (heldIds.has(delivery.id)) continue;
        added += 1;
        const target = targetKeyOf(delivery);
        heldIds.set(delivery.id, target);
        count(heldPerTarget, target, 1);
        const lane = laneOf(delivery);
        const queue = queues.get(lane) ?? [];
        queue.push(delivery);
        queues.set(lane, queue);
      }
      return added;
    },
    next(now, running) {
      const starts: Start[] = [];
      const deferrals: Deferral[] = [];
      for (const [lane, queue] of queues) {
        if (running + starts.length >= limits.concurrency) break;
        const delivery = queue[0];
        if (!delivery) {
          queues.delete(lane);
          continue;
        }
        if (busy.has(lane)) continue;
        const target = targetKeyOf(delivery);
        const paused = pausedUntil.get(target);
        if (paused !== undefined && paused > now) {
          const deferral = defer(target, paused);
          if (deferral) deferrals.push(deferral);
          continue;
        }
        if (paused !== undefined) pausedUntil.delete(target);
        if ((inFlight.get(target) ?? 0) >= (maxInFlight.get(target) ?? 1)) continue;
        queue.shift();
        if (queue.length === 0) queues.delete(lane);
        busy.add(lane);
        count(inFlight, target, 1);
        starts.push({ lane, target, delivery });
      }
      return { starts, deferrals };
    },
    finish(start, release) {
      if (release) unhold(start.delivery.id);
      busy.delete(start.lane);
      count(inFlight, start.target, -1);
    },
    limit(target, n) {
      maxInFlight.set(target, Math.max(1, n));
    },
    pause(target, until) {
      pausedUntil.set(target, Math.max(until, pausedUntil.get(target) ?? 0));
    },
    held(target) {
      return target === undefined ? heldIds.size : (heldPerTarget.get(target) ?? 0);
    },
    drain() {
      const ids = [...heldIds.keys()];
      queues.clear();
      heldIds.clear();
      heldPerTarget.clear();
      return ids;
    },
  };
}
