// Who may read a password-protected page: a signed cookie from its login page, or `Authorization: Bearer <password>`.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Page } from '../../domain/page.js';
import { verifyPassword } from '../../domain/passwords.js';

/** How long the cookie set by the login page lasts. */
export const PAGE_COOKIE_MAX_AGE_SEC = 7 * 24 * 3600;
/** Passwords already verified (by hash), so API clients sending the password on every request don't pay scrypt each time. */
const VERIFIED_CACHE_SIZE = 1000;

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

export function createPageAccess() {
  const verified = new Map<string, boolean>();
  function passwordOk(page: Page, password: string): boolean {
    if (page.passwordHash === null) return true;
    const key = createHash('sha256').update(page.passwordHash).update('\u0000').update(password).digest('base64');
    let ok = verified.get(key);
    if (ok === undefined) {
      ok = verifyPassword(password, page.passwordHash);
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
      verified.set(key, ok);
    }
    return ok;
  }
  return {
    passwordOk,
    /** Whether a request may read the page. */
    allowed(page: Page, request: { cookie: string | undefined; authorization: string | undefined }, now: number): boolean {
      if (page.passwordHash === null) return true;
      const bearer = /^Bearer\s+(.+)$/i.exec(request.authorization ?? '')?.[1];
      if (bearer !== undefined && passwordOk(page, bearer)) return true;
      const value = readCookie(request.cookie, pageCookieName(page));
      if (!value) return false;
      const [expires, signature] = value.split('.');
      const at = Number(expires);
      if (!Number.isSafeInteger(at) || at < now || !signature) return false;
      const expected = Buffer.from(sign(page, at));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type PageAccess = ReturnType<typeof createPageAccess>;

function sign(page: Page, expires: number): string {
  return createHmac('sha256', page.passwordHash ?? '').update(`${page.id}.${expires}`).digest('base64url');
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
