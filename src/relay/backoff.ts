// Exponential backoff with jitter: how long the relay agent waits before retrying a server it cannot reach.

export interface BackoffOptions {
  /** Wait before the first retry. */
  baseMs: number;
  /** Longest wait, however many attempts failed. */
  maxMs: number;
}

export const BACKOFF_DEFAULTS: BackoffOptions = { baseMs: 1000, maxMs: 60_000 };

/**
 * Delay before retry number `attempt` (1-based): base·2^(attempt−1), capped at max, with equal jitter (half of it
 * fixed, half random) so relays that lost the server at the same moment do not all come back at the same moment.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = BACKOFF_DEFAULTS,
  random: () => number = Math.random,
): number {
  const exponential = options.baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped / 2 + (capped / 2) * random());
}
