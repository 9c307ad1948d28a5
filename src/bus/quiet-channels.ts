// Organization channels nobody follows (redis-routes.ts): a process that published to one and heard from Redis that no
// process received it stops publishing there — every stored result was a PUBLISH (a JSON message and a socket write)
// that reached no one while no page, live stream or Discord board of that organization was open anywhere. It publishes
// there again as soon as a process says it follows the channel (its announcement on the events channel, which every
// process hears), and probes again with one real PUBLISH every QUIET_RECHECK_MS in case an announcement was lost.
//
// The race that matters: a reply of 0 receivers can be read after an announcement that came later (the two arrive on
// different connections). Each announcement, and each loss of the subscription, moves an epoch on; a reply only marks
// the channel quiet if no epoch passed since its PUBLISH was sent.

/** How long a channel stays quiet before one PUBLISH asks Redis again whether anyone receives it. */
export const QUIET_RECHECK_MS = 5000;

export interface QuietChannels {
  /** Whether events for this channel are skipped now. */
  skips(name: string): boolean;
  /** Before a PUBLISH: what to pass to `answered` with its reply. */
  epoch(): number;
  /** The PUBLISH sent at `epoch` reached this many subscribers. */
  answered(name: string, epoch: number, receivers: number): void;
  /** A process announced that it follows these channels: publish there again. */
  followed(names: readonly string[]): void;
  /** The subscription is lost (announcements cannot be heard): nothing is skipped until it is back. */
  reset(): void;
}

export function createQuietChannels(now: () => number = () => performance.now()): QuietChannels {
  /** Channel → when it was found quiet. */
  const quiet = new Map<string, number>();
  let epoch = 0;
  return {
    skips(name) {
      const since = quiet.get(name);
      if (since === undefined) return false;
      if (now() - since < QUIET_RECHECK_MS) return true;
      quiet.delete(name);
      return false;
    },
    epoch: () => epoch,
    answered(name, sentAt, receivers) {
      if (receivers === 0 && sentAt === epoch) quiet.set(name, now());
      else if (receivers > 0) quiet.delete(name);
    },
    followed(names) {
      epoch++;
      for (const name of names) quiet.delete(name);
    },
    reset() {
      epoch++;
      quiet.clear();
    },
  };
}
