// Wrong page passwords per client address and page: past the limit, guesses are refused (429) without running scrypt.

/** The bounds of password checking. Documented in docs/security.md. */
export const LOGIN_LIMITS = {
  /** Wrong passwords are counted in windows this long, from a client's first wrong one. */
  windowMs: 60_000,
  /** Clients × pages tracked at once; past it, ended windows are swept, then the oldest entries dropped. */
  maxTracked: 100_000,
  /** scrypt checks running at once (libuv has 4 threads by default; DNS lookups and file reads share them). */
  concurrentChecks: 2,
  /** Checks waiting for a turn; past it, a password is answered "try again shortly" (429, Retry-After: 1). */
  queuedChecks: 1_000,
} as const;

interface Tally {
  windowStart: number;
  /** Wrong passwords in the window. */
  failures: number;
  /** Checks under way: they count against the limit until they are known right or wrong. */
  inFlight: number;
}

export interface PasswordAttempts {
  /**
   * Reserves an attempt for `key` (client and page), or says for how many seconds the key is refused. A reserved attempt
   * must be settled once: `wrong` counts it, `right` does not.
   */
  reserve(
    key: string,
    now: number,
  ): { settle(outcome: 'right' | 'wrong', now: number): void } | { retryAfterSec: number };
  /** Keys tracked (for tests: memory stays bounded). */
  size(): number;
}

export function createPasswordAttempts(
  perWindow: number,
  limits: { windowMs: number; maxTracked: number } = LOGIN_LIMITS,
): PasswordAttempts {
  const tallies = new Map<string, Tally>();

  function current(key: string, now: number): Tally | undefined {
    const tally = tallies.get(key);
    if (!tally || now - tally.windowStart < limits.windowMs) return tally;
    if (tally.inFlight === 0) {
      tallies.delete(key);
      return undefined;
    }
    tally.windowStart = now;
    tally.failures = 0;
    return tally;
  }

  function track(key: string, now: number): Tally {
    if (tallies.size >= limits.maxTracked) {
      for (const [other, tally] of tallies)
        if (tally.inFlight === 0 && now - tally.windowStart >= limits.windowMs) tallies.delete(other);
      // Still full: the oldest entries go (an attacker with this many addresses gains little from it).
      for (const [other, tally] of tallies) {
        if (tallies.size < limits.maxTracked) break;
        if (tally.inFlight === 0) tallies.delete(other);
      }
    }
    const tally: Tally = { windowStart: now, failures: 0, inFlight: 0 };
    tallies.set(key, tally);
    return tally;
  }

  return {
    reserve(key, now) {
      const found = current(key, now);
      if (found && found.failures + found.inFlight >= perWindow)
        return { retryAfterSec: Math.max(1, Math.ceil((found.windowStart + limits.windowMs - now) / 1000)) };
      const tally = found ?? track(key, now);
      tally.inFlight++;
      let settled = false;
      return {
        settle(outcome, at) {
          if (settled) return;
          settled = true;
          tally.inFlight--;
          if (outcome === 'wrong') {
            // The window may have ended while the check ran: the failure opens the next one.
            if (at - tally.windowStart >= limits.windowMs) {
              tally.windowStart = at;
              tally.failures = 0;
            }
            tally.failures++;
          }
          // A tally with checks under way is never dropped (see track), so `key` still names this one.
          if (tally.inFlight === 0 && tally.failures === 0) tallies.delete(key);
        },
      };
    },
    size: () => tallies.size,
  };
}

/** At most `concurrent` tasks at once, `queued` more waiting; beyond, `run` answers null at once. */
export function createGate(concurrent: number, queued: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T | null> {
    if (running >= concurrent) {
      if (waiting.length >= queued) return null;
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
