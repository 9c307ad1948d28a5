// The source of "now", injected everywhere so time-based rules are tested without sleeping.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
