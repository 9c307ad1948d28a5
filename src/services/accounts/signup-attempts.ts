// Sign-ups per client address (each may mail someone, and costs a scrypt hash): ACCOUNT_LIMITS.signupsPerClientPerHour,
// every attempt counted, right or wrong; across the processes of a cluster when it runs.
import { ACCOUNT_LIMITS } from '../../domain/account.js';
import { TooManyAttemptsError } from '../../domain/errors.js';
import type { SharedLoginAttempts } from '../pages/page-access.js';
import { createPasswordAttempts, LOGIN_LIMITS } from '../pages/password-attempts.js';

export const SIGNUP_WINDOW_MS = 3600_000;

export interface SignupAttempts {
  /** Counts a sign-up from `client` (its address key), or refuses it past the limit (TooManyAttemptsError, 429). */
  take(client: string, now: number): Promise<void>;
}

export function createSignupAttempts(
  options: { perHour?: number; shared?: SharedLoginAttempts | undefined } = {},
): SignupAttempts {
  const perHour = options.perHour ?? ACCOUNT_LIMITS.signupsPerClientPerHour;
  const attempts = createPasswordAttempts(perHour, { windowMs: SIGNUP_WINDOW_MS, maxTracked: LOGIN_LIMITS.maxTracked });
  const refused = (retryAfterSec: number) =>
    new TooManyAttemptsError(`Too many sign-ups from this address; try again in ${retryAfterSec} s.`, retryAfterSec);
  return {
    async take(client, now) {
      const key = `signup\u0000client\u0000${client}`;
      const shared = options.shared ? await options.shared.refusedFor(key) : null;
      if (shared !== null) throw refused(shared);
      const reserved = attempts.reserve(key, now);
      if ('retryAfterSec' in reserved) throw refused(reserved.retryAfterSec);
      reserved.settle('wrong', now);
      await options.shared?.wrong(key);
    },
  };
}
