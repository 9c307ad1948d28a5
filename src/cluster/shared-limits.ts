// Cluster mode's limits that count across processes, in Redis (rate-limiter-flexible): API requests per key, pings per
// push token, wrong page and account passwords per client and key, sign-ups per client, mail through the system SMTP
// server per channel and organization. While Redis is away each falls back to counting per process.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SystemMailLimits } from '../domain/system-mail.js';
import type { RateLimitDecision, RateLimiter } from '../http/middleware/rate-limit.js';
import type { Logger } from '../logger.js';
import {
  chargedLimits,
  describeLimit,
  type SystemMailLimit,
  type SystemMailLimiter,
} from '../notify/mail/system-mail-limits.js';
import type { SharedLoginAttempts } from '../services/pages/page-access.js';
import type { LocalPushRateLimiter, PushRateDecision, PushRateLimiter } from '../services/push/rate-limit.js';

export interface SharedLimitOptions {
  /** The commands connection (cluster/redis.ts: a command fails at once while Redis is away). */
  redis: Redis;
  /** WARDEN_REDIS_PREFIX: the counters are `<prefix>:limit:<kind>:<key>`. */
  prefix: string;
  logger: Logger;
}

const ALLOWED: PushRateDecision = { allowed: true };

/**
 * Requests per API key per window, one fixed window shared by every process (it starts at the key's first request,
 * as the in-process limiter's does). Redis away: an in-memory limiter of the same size counts for this process.
 */
export function createSharedApiLimiter(
  options: SharedLimitOptions & { requests: number; windowMs: number },
): RateLimiter {
  const { requests } = options;
  const duration = Math.max(1, Math.round(options.windowMs / 1000));
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:limit:api`,
    points: requests,
    duration,
    rejectIfRedisNotReady: true,
    // A key that used its budget is refused here until the window ends, without asking Redis each time.
    inMemoryBlockOnConsumed: requests,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'api', points: requests, duration }),
  });
  const failed = onceLogged(options.logger, 'the shared API rate limit is unavailable: requests are let through');
  return {
    async take(key) {
      try {
        return decision(await limiter.consume(key), true, requests);
      } catch (error) {
        if (error instanceof RateLimiterRes) return decision(error, false, requests);
        // Both Redis and the insurance failed (not expected): let the request through rather than refuse everyone.
        failed(error);
        return { allowed: true, limit: requests, remaining: requests, resetSec: duration };
      }
    },
  };
}

/**
 * Pings per push token across the cluster. The process's own token bucket answers first, synchronously, so a flood
 * from one token is refused without a round trip; what it lets through is counted in Redis in a fixed window of the
 * bucket's refill time (WARDEN_PUSH_BURST pings per WARDEN_PUSH_BURST / WARDEN_PUSH_RATE seconds, at least a second).
 * The first pings of a token in each window of this process — `uncountedShare` of them, a tenth of the window's
 * pings, at least one — are let through without asking Redis: a heartbeat's pace, even one ping a second spread over
 * a few processes, costs no round trip for a limit it is nowhere near. The ping past that share is counted with the
 * share before it, and every ping after it in that window is counted too: a flood is counted whole from its share on.
 * So a token gets, beyond the shared count, at most two shares per process per window (two of this process's windows
 * may overlap one of Redis's): 4 pings per 2 s per process by default, against 20 counted.
 * Redis away: the process's bucket alone limits (per process).
 */
export function createSharedPushLimiter(local: LocalPushRateLimiter, options: SharedLimitOptions): PushRateLimiter {
  const duration = Math.max(1, Math.ceil(local.burst / local.perSecond));
  const points = Math.max(local.burst, Math.floor(local.perSecond * duration));
  const windowMs = duration * 1000;
  const share = uncountedShare(points);
  const windows = createPushWindows(windowMs, PUSH_WINDOWS_TRACKED);
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:limit:push`,
    points,
    duration,
    rejectIfRedisNotReady: true,
    inMemoryBlockOnConsumed: points,
  });
  const failed = onceLogged(
    options.logger,
    'the shared push rate limit is unavailable: each process limits on its own',
  );
  return {
    perSecond: local.perSecond,
    burst: local.burst,
    tracked: local.tracked,
    take(tokenHash, now) {
      const first = local.take(tokenHash, now);
      // Redis away: answered at once, by the bucket alone.
      if (!first.allowed || options.redis.status !== 'ready') return first;
      const window = windows.at(tokenHash, now);
      // Within the token's share of this window here: answered at once, uncounted.
      if (!window.counting && window.uncounted < share) {
        window.uncounted++;
        return first;
      }
      const count = window.counting ? 1 : window.uncounted + 1;
      window.counting = true;
      window.uncounted = 0;
      return limiter.consume(tokenHash, count).then(
        () => ALLOWED,
        (error: unknown) => {
          if (error instanceof RateLimiterRes)
            return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
          failed(error);
          return ALLOWED;
        },
      );
    },
  };
}

/** Pings of a token a process lets through per window without counting them in Redis: a tenth, at least one. */
export const uncountedShare = (points: number) => Math.max(1, Math.floor(points / 10));
/** Tokens whose window a process keeps at most; past it the oldest window is forgotten (its share starts over). */
const PUSH_WINDOWS_TRACKED = 100_000;

interface PushWindow {
  start: number;
  /** Pings let through in this window and not counted in Redis yet. */
  uncounted: number;
  /** Past its share: every ping of the window is counted. */
  counting: boolean;
}

/** Each token's current window on this process, oldest first; at most `tracked` of them. */
function createPushWindows(windowMs: number, tracked: number) {
  const windows = new Map<string, PushWindow>();
  return {
    at(tokenHash: string, now: number): PushWindow {
      const held = windows.get(tokenHash);
      if (held && now - held.start < windowMs) return held;
      // A new window goes to the end, so the first is always the oldest.
      windows.delete(tokenHash);
      if (windows.size >= tracked) windows.delete(windows.keys().next().value as string);
      const window = { start: now, uncounted: 0, counting: false };
      windows.set(tokenHash, window);
      return window;
    },
  };
}

/**
 * Wrong page passwords per client and page across the cluster, beside each process's own count (which also holds the
 * checks under way). Redis away: the process's count alone limits.
 */
export function createSharedLoginAttempts(options: SharedLimitOptions & { perMinute: number }): SharedLoginAttempts {
  return createSharedAttempts({ ...options, kind: 'login', points: options.perMinute, windowSec: 60 });
}

/**
 * Attempts of a kind (`login`: wrong passwords; `signup`: sign-ups per client) counted across the cluster in windows
 * of `windowSec`, `points` each, in `<prefix>:limit:<kind>:<key>`. Redis away: each process's own count alone limits.
 */
export function createSharedAttempts(
  options: SharedLimitOptions & { kind: string; points: number; windowSec: number },
): SharedLoginAttempts {
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:limit:${options.kind}`,
    points: options.points,
    duration: options.windowSec,
    rejectIfRedisNotReady: true,
  });
  const failed = onceLogged(
    options.logger,
    `the shared ${options.kind} attempt limit is unavailable: each process limits on its own`,
  );
  return {
    async refusedFor(key) {
      if (options.redis.status !== 'ready') return null;
      try {
        const res = await limiter.get(key);
        return res !== null && res.consumedPoints >= options.points
          ? Math.max(1, Math.ceil(res.msBeforeNext / 1000))
          : null;
      } catch (error) {
        failed(error);
        return null;
      }
    },
    async wrong(key) {
      if (options.redis.status === 'ready') await limiter.penalty(key, 1).catch(failed);
    },
  };
}

function decision(res: RateLimiterRes, allowed: boolean, limit: number): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** Logs the first failure of a spell at warn; the next ones at debug until a minute has passed. */
function onceLogged(logger: Logger, message: string): (error: unknown) => void {
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (error) => {
    const now = Date.now();
    if (now - loggedAt >= 60_000) {
      loggedAt = now;
      logger.warn({ err: error }, message);
    } else logger.debug({ err: error }, message);
  };
}

/**
 * Messages through the system SMTP server per channel, per organization, and tests per channel, across the cluster
 * (fixed windows in Redis). A charge refused by one counter gives back what the others took. Redis away: the
 * process's own counters limit (per process).
 */
export function createSharedSystemMailLimiter(
  local: SystemMailLimiter,
  options: SharedLimitOptions & { limits: SystemMailLimits },
): SystemMailLimiter {
  const { limits } = options;
  const duration = Math.max(1, Math.round(limits.windowMs / 1000));
  const counters = new Map<SystemMailLimit, RateLimiterRedis>(
    (['channel', 'organization', 'test'] as const).map((limit) => [
      limit,
      new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: `${options.prefix}:limit:smtp-${limit}`,
        points:
          limit === 'channel'
            ? limits.perChannel
            : limit === 'organization'
              ? limits.perOrganization
              : limits.testsPerChannel,
        duration,
        rejectIfRedisNotReady: true,
      }),
    ]),
  );
  const failed = onceLogged(
    options.logger,
    'the shared system SMTP limit is unavailable: each process limits on its own',
  );
  return {
    async take(charge, now) {
      if (options.redis.status !== 'ready') return local.take(charge, now);
      const taken: { limiter: RateLimiterRedis; key: string }[] = [];
      try {
        for (const { limit, key } of chargedLimits(charge, limits)) {
          const limiter = counters.get(limit) as RateLimiterRedis;
          try {
            await limiter.consume(key);
            taken.push({ limiter, key });
          } catch (error) {
            if (!(error instanceof RateLimiterRes)) throw error;
            await Promise.all(taken.map((t) => t.limiter.reward(t.key, 1)));
            return {
              allowed: false,
              retryAfterMs: Math.max(1, error.msBeforeNext),
              limit: describeLimit(limit, limits),
            };
          }
        }
        return { allowed: true };
      } catch (error) {
        failed(error);
        return local.take(charge, now);
      }
    },
  };
}
