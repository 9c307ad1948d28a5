// Organization channels nobody follows (redis-routes.ts): a process that published to one and heard from Redis that no
// process received it stops publishing there — every stored result was a PUBLISH (a JSON message and a socket write)
// that reached no one while no page, live stream or Discord board of that organization was open anywhere. It publishes
// there again as soon as a process says it follows the channel (its announcement on the events channel, which every
// process hears), and probes again with one real PUBLISH every QUIET_RECHECK_MS in case an announcement was lost.
//
// Two races matter. A reply of 0 receivers can be read after an announcement that came later (the two arrive on
// different connections): each announcement, and each loss of the subscription, moves an epoch on, and a reply only
// marks the channel quiet if no epoch passed since its PUBLISH was sent. And the follower is ready once Redis has
// delivered its announcement, which the other processes read a moment later, each when its event loop gets to it:
// what one of them skipped in between would never reach the follower, whose page was built from the database just
// before. So the events skipped in the last QUIET_HOLD_MS are held, and sent after all when the announcement is read.

/** How long a channel stays quiet before one PUBLISH asks Redis again whether anyone receives it. */
export const QUIET_RECHECK_MS = 5000;
/** How long skipped events are held for a follower announced meanwhile (as long as a follower waits for its echo). */
export const QUIET_HOLD_MS = 2000;
/** Events held at most per channel; past it the oldest go (the follower's snapshot may then be older than its events). */
export const QUIET_HOLD_EVENTS = 1000;

export interface QuietChannels<E> {
  /** Whether these events for this channel are skipped now; skipped ones are held for QUIET_HOLD_MS. */
  skip(name: string, events: readonly E[]): boolean;
  /** Before a PUBLISH: what to pass to `answered` with its reply. */
  epoch(): number;
  /** The PUBLISH sent at `epoch` reached this many subscribers. */
  answered(name: string, epoch: number, receivers: number): void;
  /** A process announced that it follows these channels: publish there again, starting with the events held. */
  followed(names: readonly string[]): Map<string, E[]>;
  /** The subscription is lost (announcements cannot be heard): nothing is skipped until it is back. */
  reset(): void;
}

export function createQuietChannels<E>(now: () => number = () => performance.now()): QuietChannels<E> {
  /** Channel → when it was found quiet. */
  const quiet = new Map<string, number>();
  /** Channel → the events skipped lately, oldest first, each with when. */
  const held = new Map<string, { at: number; event: E }[]>();
  let sweptAt = now();
  let epoch = 0;

  /** Drops what is older than the hold, every channel's at most once per QUIET_HOLD_MS. */
  function sweep(at: number): void {
    if (at - sweptAt < QUIET_HOLD_MS) return;
    sweptAt = at;
    for (const [name, list] of held) {
      const kept = list.filter((h) => at - h.at < QUIET_HOLD_MS);
      if (kept.length === 0) held.delete(name);
      else held.set(name, kept);
    }
  }

  return {
    skip(name, events) {
      const since = quiet.get(name);
      if (since === undefined) return false;
      const at = now();
      if (at - since >= QUIET_RECHECK_MS) {
        quiet.delete(name);
        held.delete(name);
        return false;
      }
      sweep(at);
      const list = held.get(name) ?? [];
      for (const event of events) list.push({ at, event });
      if (list.length > QUIET_HOLD_EVENTS) list.splice(0, list.length - QUIET_HOLD_EVENTS);
      held.set(name, list);
      return true;
    },
    epoch: () => epoch,
    answered(name, sentAt, receivers) {
      if (receivers === 0 && sentAt === epoch) quiet.set(name, now());
      else if (receivers > 0) {
        quiet.delete(name);
        held.delete(name);
      }
    },
    followed(names) {
      epoch++;
      const at = now();
      const resend = new Map<string, E[]>();
      for (const name of names) {
        quiet.delete(name);
        const recent = (held.get(name) ?? []).filter((h) => at - h.at < QUIET_HOLD_MS).map((h) => h.event);
        held.delete(name);
        if (recent.length > 0) resend.set(name, recent);
      }
      return resend;
    },
    reset() {
      epoch++;
      quiet.clear();
      held.clear();
    },
  };
}
