// The session cookie: the browser's only credential. HttpOnly, SameSite=Lax, Secure (with the __Host- prefix) when
// Warden is served over https; its value is an opaque token (wds_…) the store keeps only as a hash.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import type { AppEnv } from './env.js';

const PLAIN = 'warden_session';
const SECURE = '__Host-warden_session';

/** Whether this request reached Warden over https: its public address says so, or (behind a trusted proxy) X-Forwarded-Proto. */
export function servedSecurely(c: Context): boolean {
  const deps = depsOf(c);
  if (deps.baseUrl.startsWith('https://')) return true;
  if (deps.security.trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https') return true;
  return new URL(c.req.url).protocol === 'https:';
}

/** The session token the browser sent, if any (either cookie name: a proxy may have been put in front since). */
export function readSessionToken(c: Context): string | undefined {
  return getCookie(c, SECURE) ?? getCookie(c, PLAIN);
}

/** The same from a raw Cookie header: the WebSocket handshake of the organization's live stream is not a Hono request. */
export function sessionTokenOfCookieHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const cookies = parse(header);
  return cookies[SECURE] ?? cookies[PLAIN];
}

export function setSessionCookie(c: Context, token: string, expiresAt: number): void {
  const secure = servedSecurely(c);
  const maxAge = Math.max(0, Math.floor((expiresAt - depsOf(c).clock.now()) / 1000));
  setCookie(c, secure ? SECURE : PLAIN, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure, maxAge });
}

export function clearSessionCookie(c: Context): void {
  for (const name of [SECURE, PLAIN])
    if (getCookie(c, name) !== undefined)
      setCookie(c, name, '', { path: '/', httpOnly: true, sameSite: 'Lax', secure: name === SECURE, maxAge: 0 });
}

/**
 * Cookie-authenticated writes must come from Warden's own pages (CSRF): the Origin header (or, without one, the
 * browser's Sec-Fetch-Site) must name this very site. Scripts use API keys, which no other site can send.
 */
export function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined || origin === 'null') return c.req.header('sec-fetch-site') === 'same-origin';
  const own = new Set([new URL(depsOf(c).baseUrl).origin, new URL(c.req.url).origin]);
  const host = c.req.header('host');
  if (host) own.add(`${servedSecurely(c) ? 'https' : 'http'}://${host}`);
  return own.has(origin);
}

// Any route's context (whatever else its env holds) carries the app's parts.
const depsOf = (c: Context) => (c as Context<AppEnv>).get('deps');
