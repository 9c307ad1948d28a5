// A per-key request budget (fixed window) answered with 429, Retry-After and the RateLimit-* headers of the IETF draft.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { problem, problemResponse } from '../problem.js';
import { type OrgAuthEnv, setResponseHeaders } from './org-auth.js';

export interface RateLimitOptions {
  requests: number;
  windowMs: number;
  /** Keys tracked at most; beyond it, expired windows are swept and then the oldest dropped. */
  maxKeys: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSec: number;
}

/** Counts one request of `key`; cluster mode's shared limiter (cluster/shared-limits.ts) answers asynchronously. */
export interface RateLimiter {
  take(key: string, now: number): RateLimitDecision | Promise<RateLimitDecision>;
}

export interface LocalRateLimiter extends RateLimiter {
  take(key: string, now: number): RateLimitDecision;
}

/** In-process state: each Warden process counts on its own (behind a load balancer, each grants the budget). */
export function createRateLimiter(options: RateLimitOptions): LocalRateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  function sweep(now: number): void {
    for (const [key, w] of windows) if (now - w.start >= options.windowMs) windows.delete(key);
    while (windows.size >= options.maxKeys) {
      const oldest = windows.keys().next().value;
      if (oldest === undefined) break;
      windows.delete(oldest);
    }
  }
  return {
    take(key, now) {
      let w = windows.get(key);
      if (!w || now - w.start >= options.windowMs) {
        if (!w && windows.size >= options.maxKeys) sweep(now);
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      const allowed = w.count < options.requests;
      if (allowed) w.count++;
      return {
        allowed,
        limit: options.requests,
        remaining: options.requests - w.count,
        resetSec: Math.max(1, Math.ceil((w.start + options.windowMs - now) / 1000)),
      };
    },
  };
}

/** Counts each request against its API key (or signed-in user); every answer carries the RateLimit-* headers, a refusal also Retry-After. */
export function apiRateLimit(limiter: RateLimiter, windowMs: number): MiddlewareHandler<AppEnv & OrgAuthEnv> {
  const windowSec = Math.round(windowMs / 1000);
  return async (c, next) => {
    const d = await limiter.take(c.get('principal').rateKey, c.get('deps').clock.now());
    const headers = {
      'ratelimit-limit': String(d.limit),
      'ratelimit-remaining': String(d.remaining),
      'ratelimit-reset': String(d.resetSec),
      'ratelimit-policy': `${d.limit};w=${windowSec}`,
    };
    if (!d.allowed)
      return problemResponse(
        c,
        problem(
          429,
          'rate-limited',
          'Too many requests',
          `You may make ${d.limit} requests per ${windowSec} seconds; retry in ${d.resetSec} s.`,
        ),
        { ...headers, 'retry-after': String(d.resetSec) },
      );
    await next();
    // Rebuilt rather than set through c.res.headers, which the Node server's light Response can forget (org-auth.ts).
    setResponseHeaders(c, headers);
  };
}
