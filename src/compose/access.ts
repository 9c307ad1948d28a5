// Who may try how often: page passwords, account sign-ins and sign-ups, and pushes (cluster mode: counted in Redis).
import {
  createSharedAttempts,
  createSharedLoginAttempts,
  createSharedPushLimiter,
  type SharedLimitOptions,
} from '../cluster/shared-limits.js';
import { ACCOUNT_LIMITS } from '../domain/account.js';
import type { SecurityOptions } from '../domain/security.js';
import { createSignInAttempts } from '../services/accounts/sign-in-attempts.js';
import { createSignupAttempts, SIGNUP_WINDOW_MS } from '../services/accounts/signup-attempts.js';
import { createPageAccess } from '../services/pages/page-access.js';
import { createPushRateLimiter, type PushRateLimiter } from '../services/push/rate-limit.js';

export function composeAccess(security: SecurityOptions, shared: SharedLimitOptions | null) {
  // Wrong page passwords and wrong account passwords and codes are counted alike (cluster mode: in Redis, by key).
  const sharedLogins = shared
    ? createSharedLoginAttempts({ ...shared, perMinute: security.loginAttemptsPerMinute })
    : undefined;
  const pageAccess = createPageAccess({ attemptsPerMinute: security.loginAttemptsPerMinute, shared: sharedLogins });
  const signInAttempts = createSignInAttempts({ perMinute: security.loginAttemptsPerMinute, shared: sharedLogins });
  const signupAttempts = createSignupAttempts({
    shared: shared
      ? createSharedAttempts({
          ...shared,
          kind: 'signup',
          points: ACCOUNT_LIMITS.signupsPerClientPerHour,
          windowSec: SIGNUP_WINDOW_MS / 1000,
        })
      : undefined,
  });
  // One limiter for both push paths (pre-router and app), so a token's rate is the same whichever answers it.
  const localPushLimiter = createPushRateLimiter({ perSecond: security.pushPerSecond, burst: security.pushBurst });
  const pushLimiter: PushRateLimiter = shared ? createSharedPushLimiter(localPushLimiter, shared) : localPushLimiter;
  return { pageAccess, signInAttempts, signupAttempts, pushLimiter };
}
