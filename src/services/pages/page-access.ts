// Who may read a password-protected page: a signed cookie from its login page, or `Authorization: Bearer <password>`.
// Password checks are limited per client address and page (a wrong one counts, whichever way it came), and scrypt runs
// off the event loop, a few at a time.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Page } from '../../domain/page.js';
import { verifyPassword } from '../../domain/passwords.js';
import { SECURITY_DEFAULTS } from '../../domain/security.js';
import { createGate, createPasswordAttempts, LOGIN_LIMITS } from './password-attempts.js';

/** How long the cookie set by the login page lasts. */
export const PAGE_COOKIE_MAX_AGE_SEC = 7 * 24 * 3600;
/** Passwords already verified right (by hash), so API clients sending the password on every request don't pay scrypt each time. */
const VERIFIED_CACHE_SIZE = 1000;

/** The outcome of a password or a request: let in, refused (401), or refused for now (429 with Retry-After). */
export type Access = { kind: 'allowed' } | { kind: 'denied' } | { kind: 'limited'; retryAfterSec: number };

const ALLOWED: Access = { kind: 'allowed' };
const DENIED: Access = { kind: 'denied' };

export function pageCookieName(page: Pick<Page, 'slug'>): string {
  return `warden_page_${page.slug}`;
}

/**
 * The cookie value is `expiry.signature`, signed with the page's password hash: secret to the server,
 * and changing the password makes every cookie issued before invalid.
 */
export function issuePageCookie(page: Page, now: number): string {
  const expires = now + PAGE_COOKIE_MAX_AGE_SEC * 1000;
  return `${expires}.${sign(page, expires)}`;
}

export interface PageAccessOptions {
  /** Wrong passwords per client address and page per minute; more are answered 429 without being checked. */
  attemptsPerMinute?: number;
  /** Cluster mode: the same count across processes (cluster/shared-limits.ts), beside this process's own. */
  shared?: SharedLoginAttempts | undefined;
}

/** Wrong passwords counted across the processes of a cluster, per `client\u0000pageId` key. */
export interface SharedLoginAttempts {
  /** Seconds the key is refused for, or null when it may try. */
  refusedFor(key: string): Promise<number | null>;
  /** Counts a wrong password. */
  wrong(key: string): Promise<void>;
}

export function createPageAccess(options: PageAccessOptions = {}) {
  const verified = new Set<string>();
  const attempts = createPasswordAttempts(options.attemptsPerMinute ?? SECURITY_DEFAULTS.loginAttemptsPerMinute);
  const gate = createGate(LOGIN_LIMITS.concurrentChecks, LOGIN_LIMITS.queuedChecks);

  /**
   * Whether `password` is the page's, for `client` (its address key, see src/http/client-address.ts). A password
   * verified before is let in at once, even while the client is limited: only a right password can match.
   */
  async function checkPassword(page: Page, password: string, client: string, now: () => number): Promise<Access> {
    const stored = page.passwordHash;
    if (stored === null) return ALLOWED;
    const cacheKey = createHash('sha256').update(stored).update('\u0000').update(password).digest('base64');
    if (verified.has(cacheKey)) return ALLOWED;
    const key = `${client}\u0000${page.id}`;
    const refusedFor = options.shared ? await options.shared.refusedFor(key) : null;
    if (refusedFor !== null) return { kind: 'limited', retryAfterSec: refusedFor };
    const reserved = attempts.reserve(key, now());
    if ('retryAfterSec' in reserved) return { kind: 'limited', retryAfterSec: reserved.retryAfterSec };
    // Unsettled (an error, or no turn at the gate) counts as not wrong.
    let outcome: 'right' | 'wrong' | 'busy' = 'busy';
    try {
      const checked = password === '' ? false : await gate(() => verifyPassword(password, stored));
      if (checked !== null) outcome = checked ? 'right' : 'wrong';
    } finally {
      reserved.settle(outcome === 'wrong' ? 'wrong' : 'right', now());
    }
    if (outcome === 'wrong') await options.shared?.wrong(key);
    if (outcome === 'busy') return { kind: 'limited', retryAfterSec: 1 };
    if (outcome === 'wrong') return DENIED;
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
    verified.add(cacheKey);
    return ALLOWED;
  }

  return {
    checkPassword,
    /** Whether a request may read the page: its cookie (checked first, it costs nothing), else its Bearer password. */
    async allowed(
      page: Page,
      request: { cookie: string | undefined; authorization: string | undefined; client: string },
      now: () => number,
    ): Promise<Access> {
      if (page.passwordHash === null || cookieOk(page, request.cookie, now())) return ALLOWED;
      const bearer = /^Bearer\s+(.+)$/i.exec(request.authorization ?? '')?.[1];
      return bearer === undefined ? DENIED : checkPassword(page, bearer, request.client, now);
    },
  };
}

export type PageAccess = ReturnType<typeof createPageAccess>;

function cookieOk(page: Page, header: string | undefined, now: number): boolean {
  const value = readCookie(header, pageCookieName(page));
  if (!value) return false;
  const [expires, signature] = value.split('.');
  const at = Number(expires);
  if (!Number.isSafeInteger(at) || at < now || !signature) return false;
  const expected = Buffer.from(sign(page, at));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function sign(page: Page, expires: number): string {
  return createHmac('sha256', page.passwordHash ?? '')
    .update(`${page.id}.${expires}`)
    .digest('base64url');
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
