// A per-organization budget after the usual guards, for operations that make Warden connect somewhere the caller picks.
import { every } from 'hono/combine';
import { API_LIMITS } from '../../../services/api-limits.js';
import { createRateLimiter } from '../../middleware/rate-limit.js';
import { problem, problemResponse } from '../../problem.js';
import type { ApiGuard, ApiGuards } from './operation.js';

export interface Budget {
  requests: number;
  windowMs: number;
  /** The 429's title, e.g. "Too many probe runs". */
  title: string;
  /** What the organization may make, e.g. `10 probe runs per 5 s per organization`. */
  limit: string;
}

/** The same guards with the budget after them: per organization (whoever asks), counted in this process. */
export function budgetedGuards(guards: ApiGuards, budget: Budget): ApiGuards {
  const limiter = createRateLimiter({
    requests: budget.requests,
    windowMs: budget.windowMs,
    maxKeys: API_LIMITS.rateLimitTrackedKeys,
  });
  const take: ApiGuard = async (c, next) => {
    const decision = limiter.take(c.var.principal.organizationId, c.var.deps.clock.now());
    if (!decision.allowed)
      return problemResponse(
        c,
        problem(
          429,
          'rate-limited',
          budget.title,
          `Your organization may make ${budget.limit}; retry in ${decision.resetSec} s.`,
        ),
        { 'retry-after': String(decision.resetSec) },
      );
    await next();
  };
  const limited = (guard: ApiGuard) => every(guard, take) as ApiGuard;
  return {
    read: limited(guards.read),
    write: limited(guards.write),
    for: (role, write) => limited(guards.for(role, write)),
  };
}
