// Wrong guesses at account secrets (sign-in passwords, second factors, a signed-in user's current password) limited per
// account and per client address (per known device for its own account), with the machinery of page passwords: WARDEN_LOGIN_ATTEMPTS_PER_MINUTE wrong ones a
// minute for each, counted across the processes of a cluster when it runs; the scrypt work runs a few at a time.
import { isWrongGuess } from '../../domain/account-errors.js';
import { TooManyAttemptsError } from '../../domain/errors.js';
import type { SharedLoginAttempts } from '../pages/page-access.js';
import { createGate, createPasswordAttempts, LOGIN_LIMITS } from '../pages/password-attempts.js';

export interface SignInAttempts {
  /**
   * Runs `work` (a check of a secret) unless one of `keys` used up its wrong guesses (TooManyAttemptsError, 429 with
   * Retry-After). A wrong guess (SignInError, WrongSecretError) counts against every key; anything else does not.
   */
  guard<T>(keys: readonly string[], now: () => number, work: () => Promise<T>): Promise<T>;
}

/**
 * The keys of a sign-in: the account (its lower-cased email) and the client's address (src/http/client-address.ts) —
 * or, from a known device of the account (known-devices.ts), that device alone, so nobody else's wrong guesses lock
 * its owner out.
 */
export const signInKeys = {
  email: (email: string) => `account\u0000email\u0000${email.trim().toLowerCase()}`,
  device: (userId: string, deviceId: string) => `account\u0000device\u0000${userId}\u0000${deviceId}`,
  user: (userId: string) => `account\u0000user\u0000${userId}`,
  client: (address: string) => `account\u0000client\u0000${address}`,
  /** Every guess at the setup code, from anywhere: with ~40 bits and this limit a code cannot be guessed before it expires. */
  setup: 'account\u0000setup-code',
};

export function createSignInAttempts(options: {
  perMinute: number;
  shared?: SharedLoginAttempts | undefined;
}): SignInAttempts {
  const attempts = createPasswordAttempts(options.perMinute);
  const gate = createGate(LOGIN_LIMITS.concurrentChecks, LOGIN_LIMITS.queuedChecks);
  const refused = (retryAfterSec: number) =>
    new TooManyAttemptsError(`Too many wrong attempts; try again in ${retryAfterSec} s.`, retryAfterSec);
  return {
    async guard<T>(keys: readonly string[], now: () => number, work: () => Promise<T>): Promise<T> {
      if (options.shared)
        for (const key of keys) {
          const retryAfterSec = await options.shared.refusedFor(key);
          if (retryAfterSec !== null) throw refused(retryAfterSec);
        }
      const reserved: { settle(outcome: 'right' | 'wrong', now: number): void }[] = [];
      for (const key of keys) {
        const reservation = attempts.reserve(key, now());
        if ('retryAfterSec' in reservation) {
          for (const r of reserved) r.settle('right', now());
          throw refused(reservation.retryAfterSec);
        }
        reserved.push(reservation);
      }
      let outcome: 'right' | 'wrong' = 'right';
      try {
        const result = await gate(work);
        if (result === null) throw refused(1);
        return result as T;
      } catch (error) {
        if (isWrongGuess(error)) outcome = 'wrong';
        throw error;
      } finally {
        for (const r of reserved) r.settle(outcome, now());
        if (outcome === 'wrong' && options.shared) await Promise.all(keys.map((key) => options.shared?.wrong(key)));
      }
    },
  };
}
