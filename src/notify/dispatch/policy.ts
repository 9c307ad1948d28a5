// The dispatcher's outcome policy: what one attempt's outcome (classified by the channel, channels/outcome.ts) means for
// the delivery — sent, retry at a time (the receiver's Retry-After, else full-jitter backoff), or dead (the receiver
// refused it, or it has failed for longer than the give-up window). Pure: the time and the jitter are handed in.
import type { SendOutcome } from '../channels/channel.js';

export interface RetryPolicy {
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** After this long since it was enqueued, a delivery that still fails is dead. */
  giveUpMs: number;
}

/** One attempt, as the policy judges it. */
export interface Attempt {
  outcome: SendOutcome;
  /** Attempts so far, this one included. */
  attempts: number;
  /** When the delivery was enqueued. */
  createdAt: number;
  now: number;
  /** In [0, 1): this attempt's jitter. */
  random: number;
  /**
   * A hold (the system SMTP server's limit): the target waits until the retry is due, but not when the delivery is
   * given up. A 429 pauses the target until then either way.
   */
  hold?: boolean;
}

export type Decision =
  | { kind: 'sent' }
  | { kind: 'retry'; at: number; error: string; pauseUntil: number | null }
  | { kind: 'dead'; error: string; pauseUntil: number | null };

/** Full jitter: a uniform delay up to base × 2^(attempt−1), capped. */
export function backoffMs(attempt: number, random: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random * ceiling);
}

export function decide(attempt: Attempt, policy: RetryPolicy): Decision {
  const { outcome, now } = attempt;
  if (outcome.kind === 'sent') return { kind: 'sent' };
  if (outcome.kind === 'dead') return { kind: 'dead', error: outcome.error, pauseUntil: null };
  const delay =
    outcome.afterMs !== undefined
      ? Math.ceil(outcome.afterMs)
      : backoffMs(attempt.attempts, attempt.random, policy.backoffBaseMs, policy.backoffMaxMs);
  const at = now + delay;
  const givenUp = at > attempt.createdAt + policy.giveUpMs;
  const pauseUntil = outcome.status === 429 || (attempt.hold === true && !givenUp) ? at : null;
  if (givenUp)
    return { kind: 'dead', error: `gave up after ${attempt.attempts} attempts: ${outcome.error}`, pauseUntil };
  return { kind: 'retry', at, error: outcome.error, pauseUntil };
}
