// How often one push token may store a ping: a token bucket per token (WARDEN_PUSH_RATE a second, bursts of
// WARDEN_PUSH_BURST), shared by the pre-router and the app; beyond it the ping is refused with 429 and nothing stored.
import { WardenError } from '../../domain/errors.js';
import { PUSH_LIMITS } from './limits.js';

export interface PushRateOptions {
  /** Pings a token may store per second, on average. */
  perSecond: number;
  /** Pings a token may store at once after a quiet spell (the bucket's size). */
  burst: number;
  /** Tokens tracked at most; PUSH_LIMITS.rateTrackedTokens when absent. */
  maxTracked?: number;
}

export type PushRateDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

export interface PushRateLimiter {
  readonly perSecond: number;
  readonly burst: number;
  /**
   * Takes one ping from the bucket of this token (its hash); refused when the bucket is empty. Synchronous in one
   * process; cluster mode's shared limiter (cluster/shared-limits.ts) may answer after a round trip to Redis.
   */
  take(tokenHash: string, now: number): PushRateDecision | Promise<PushRateDecision>;
  /** Tokens tracked now (for tests: bounded by maxTracked). */
  tracked(): number;
}

export interface LocalPushRateLimiter extends PushRateLimiter {
  take(tokenHash: string, now: number): PushRateDecision;
}

/** A ping refused by the token's rate: answered 429 with Retry-After (whole seconds, at least 1). */
export class PushRateLimitedError extends WardenError {
  readonly status = 429;
  readonly title = 'Too many requests';
  readonly code = 'rate-limited';
  constructor(
    readonly retryAfterSec: number,
    limiter: Pick<PushRateLimiter, 'perSecond' | 'burst'>,
  ) {
    super(
      `This push token may store ${limiter.perSecond} pings a second (bursts of ${limiter.burst}); retry in ${retryAfterSec} s.`,
    );
  }
}

/**
 * In-process state: each Warden process counts on its own. A bucket left alone refills in burst / perSecond seconds,
 * and a full bucket is the same as none: once maxTracked tokens are held, full buckets are swept (at most once per
 * refill time), then the oldest dropped, so memory stays bounded whatever the number of tokens.
 */
export function createPushRateLimiter(options: PushRateOptions): LocalPushRateLimiter {
  const { perSecond, burst } = options;
  const maxTracked = options.maxTracked ?? PUSH_LIMITS.rateTrackedTokens;
  const refillMs = (burst / perSecond) * 1000;
  /** Per token hash: the pings left in its bucket at `at`. */
  const buckets = new Map<string, { left: number; at: number }>();
  let sweptAt = Number.NEGATIVE_INFINITY;

  function makeRoom(now: number): void {
    if (now - sweptAt >= refillMs) {
      sweptAt = now;
      for (const [hash, bucket] of buckets) if (now - bucket.at >= refillMs) buckets.delete(hash);
    }
    while (buckets.size >= maxTracked) {
      const oldest = buckets.keys().next().value;
      if (oldest === undefined) break;
      buckets.delete(oldest);
    }
  }

  return {
    perSecond,
    burst,
    take(tokenHash, now) {
      let bucket = buckets.get(tokenHash);
      if (bucket === undefined) {
        if (buckets.size >= maxTracked) makeRoom(now);
        bucket = { left: burst, at: now };
        buckets.set(tokenHash, bucket);
      } else if (now > bucket.at) {
        bucket.left = Math.min(burst, bucket.left + ((now - bucket.at) * perSecond) / 1000);
        bucket.at = now;
      }
      if (bucket.left >= 1) {
        bucket.left -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSec: Math.max(1, Math.ceil((1 - bucket.left) / perSecond)) };
    },
    tracked: () => buckets.size,
  };
}
