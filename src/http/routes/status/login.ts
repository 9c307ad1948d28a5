// POST /s/{slug}/login (or /login on a custom domain): the password form's answer, a cookie or the form again.
// The body is read under a small cap while it streams (chunked or not), and wrong passwords count against the client.
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import { issuePageCookie, PAGE_COOKIE_MAX_AGE_SEC, pageCookieName } from '../../../services/pages/page-access.js';
import type { AppEnv, PageServingDeps } from '../../env.js';
import { readBodyBytes } from '../../middleware/json-body.js';
import { problem, problemResponse } from '../../problem.js';
import { pickedLanguage, readerLanguage } from './page-language.js';
import { requestClient } from './request-client.js';
import { passwordRequired, tooManyAttempts } from './serve-form.js';

/** The login form posts at most this much (a password is at most 256 characters). */
export const LOGIN_BODY_MAX_BYTES = 2048;

export async function loginPost(
  c: Context<AppEnv>,
  { pageAccess, clock }: Pick<PageServingDeps, 'pageAccess' | 'clock'>,
  page: Page,
  basePath: string,
): Promise<Response> {
  const password = await readPassword(c);
  if (password === null)
    return problemResponse(
      c,
      problem(413, 'body-too-large', 'Body too large', `The body must be at most ${LOGIN_BODY_MAX_BYTES} bytes.`),
      {
        'cache-control': 'no-store',
      },
    );
  // The reader's pick of language (?lang on the form's action) stays with them, back on the page too.
  const url = c.req.url;
  const reader = readerLanguage(
    page,
    pickedLanguage(url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''),
    c.req.header('accept-language'),
  );
  const back = (basePath || '/') + (reader.picked ? `?lang=${reader.picked}` : '');
  if (page.passwordHash === null) return c.redirect(back, 303);
  const access = await pageAccess.checkPassword(page, password, requestClient(c), () => clock.now());
  if (access.kind === 'limited') return tooManyAttempts(c, 'html', basePath, access.retryAfterSec, reader);
  if (access.kind === 'denied') return passwordRequired(c, 'html', basePath, reader, true);
  const secure = new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  const cookie = [
    `${pageCookieName(page)}=${issuePageCookie(page, clock.now())}`,
    'Path=/',
    `Max-Age=${PAGE_COOKIE_MAX_AGE_SEC}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
  return new Response(null, {
    status: 303,
    headers: { location: back, 'set-cookie': cookie, 'cache-control': 'no-store' },
  });
}

/** The form's `password` ('' when absent or unreadable), or null when the body passes the cap. */
async function readPassword(c: Context<AppEnv>): Promise<string | null> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > LOGIN_BODY_MAX_BYTES) return null;
  const bytes = await readBodyBytes(c, LOGIN_BODY_MAX_BYTES);
  if (bytes.length > LOGIN_BODY_MAX_BYTES) return null;
  const type = c.req.header('content-type') ?? '';
  try {
    const value = /^multipart\/form-data/i.test(type)
      ? (await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData()).get('password')
      : new URLSearchParams(bytes.toString('utf8')).get('password');
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}
