// The known-device cookie (services/accounts/known-devices.ts): set when a browser signs in, read when it signs in
// again. HttpOnly, SameSite=Strict (only Warden's own sign-in page needs it), Secure with the __Host- prefix over https.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ACCOUNT_LIMITS } from '../domain/account.js';
import { servedSecurely } from './session-cookie.js';

const PLAIN = 'warden_device';
const SECURE = '__Host-warden_device';

export function readDeviceCookie(c: Context): string | undefined {
  return getCookie(c, SECURE) ?? getCookie(c, PLAIN);
}

export function setDeviceCookie(c: Context, value: string): void {
  const secure = servedSecurely(c);
  setCookie(c, secure ? SECURE : PLAIN, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'Strict',
    secure,
    maxAge: Math.floor(ACCOUNT_LIMITS.knownDeviceLifetimeMs / 1000),
  });
}
