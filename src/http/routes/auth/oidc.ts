// GET /api/v1/auth/oidc/start and /callback: signing in with the team's OpenID Connect provider (docs/accounts.md).
// Between the two, the flow's checks (state, nonce, PKCE verifier) and where to go next ride in a short-lived HttpOnly
// cookie scoped to these paths: nothing is kept in memory, so any process of a cluster can answer the callback. Every
// failure lands on the sign-in page with an error code; no token, code or secret is ever shown or logged.
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AccountSettings } from '../../../config/settings.js';
import { rememberDevice } from '../../../services/accounts/known-devices.js';
import { createOidcClient, type OidcChecks, OidcFailure } from '../../../services/accounts/oidc-client.js';
import { signInWithOidc } from '../../../services/accounts/oidc-sign-in.js';
import { readDeviceCookie, setDeviceCookie } from '../../device-cookie.js';
import type { App, AppEnv } from '../../env.js';
import { problemResponse as problemResponseDoc, security, TAGS } from '../../openapi.js';
import { problem, problemResponse } from '../../problem.js';
import { servedSecurely, setSessionCookie } from '../../session-cookie.js';
import { requestClient } from '../status/request-client.js';

const FLOW_PATH = '/api/v1/auth/oidc';
const FLOW_COOKIE = 'warden_oidc';
/** How long a browser may take at the provider before the callback is refused. */
export const OIDC_FLOW_LIFETIME_MS = 10 * 60_000;
/** Where a sign-in lands without a usable `next`, and where a failed one goes. */
const DEFAULT_NEXT = '/app';
const LOGIN_PAGE = '/app/login';
const NEXT_MAX_CHARS = 2000;

/** The error codes of /app/login?error=… a sign-in through the provider may end with. */
export const OIDC_LOGIN_ERRORS = [
  'oidc-unavailable',
  'oidc-cancelled',
  'oidc-failed',
  'oidc-expired',
  'oidc-no-email',
  'oidc-email-unverified',
  'oidc-account-unverified',
  'no-account',
] as const;
type OidcLoginError = (typeof OIDC_LOGIN_ERRORS)[number];

const redirectResponse = (description: string) => ({
  description,
  headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' as const } } },
});
const notConfiguredDoc = problemResponseDoc(
  404,
  'No OpenID Connect provider is configured (WARDEN_OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET).',
);

export const oidcStartRoute = createRoute({
  method: 'get',
  path: `${FLOW_PATH}/start`,
  tags: [TAGS.account.name],
  security: security.none,
  summary: 'Begin signing in with OpenID Connect',
  description: `A link for the browser, not for scripts: redirects to the provider (authorization code flow with PKCE) and keeps the flow's checks in a ${OIDC_FLOW_LIFETIME_MS / 60_000}-minute HttpOnly cookie. When the provider cannot be reached, redirects to ${LOGIN_PAGE}?error=oidc-unavailable.`,
  request: {
    query: z.object({
      next: z
        .string()
        .optional()
        .openapi({
          example: '/app/monitors',
          description: `Where to land once signed in: a path under /app (anything else is ignored for ${DEFAULT_NEXT}).`,
        }),
    }),
  },
  responses: { 302: redirectResponse('To the provider’s sign-in page.'), 404: notConfiguredDoc },
});

export const oidcCallbackRoute = createRoute({
  method: 'get',
  path: `${FLOW_PATH}/callback`,
  tags: [TAGS.account.name],
  security: security.none,
  summary: 'Finish signing in with OpenID Connect',
  description: [
    `The redirect URI to register at the provider (\`{WARDEN_BASE_URL}${FLOW_PATH}/callback\`). Exchanges the code, requires a verified email, and signs in the user linked to this identity, else the user with that email when their address is verified (linking it; oidc-account-unverified when it is not), else a new user when an invitation awaits the email or WARDEN_SIGNUP is open.`,
    `Redirects to \`next\` with the session cookie, or to ${LOGIN_PAGE}?error= one of: ${OIDC_LOGIN_ERRORS.join(', ')}.`,
  ].join(' '),
  request: {
    query: z.object({
      code: z.string().optional(),
      state: z.string().optional(),
      iss: z.string().optional(),
      error: z.string().optional(),
      error_description: z.string().optional(),
    }),
  },
  responses: {
    302: redirectResponse(
      'Signed in (to `next`, with the session cookie) or refused (to the sign-in page with an error code).',
    ),
    404: notConfiguredDoc,
  },
});

/** The provider comes from the app's settings; its metadata is discovered at the first sign-in and kept by this app. */
export function oidcRoutes(app: App, accounts: AccountSettings | undefined): void {
  const client = accounts?.oidc ? createOidcClient(accounts.oidc) : null;

  app.openapi(oidcStartRoute, async (c) => {
    if (!client) return notConfigured(c) as never;
    const next = sameSiteNext(c.req.valid('query').next);
    try {
      const { url, checks } = await client.begin(callbackUrl(c));
      writeFlow(c, { ...checks, next, at: c.get('deps').clock.now() });
      return redirect(c, url.href) as never;
    } catch (error) {
      return failed(c, error) as never;
    }
  });

  app.openapi(oidcCallbackRoute, async (c) => {
    if (!client) return notConfigured(c) as never;
    const flow = readFlow(c);
    clearFlow(c);
    if (!flow) return toLogin(c, 'oidc-expired') as never;
    try {
      const claims = await client.finish(new URL(callbackUrl(c) + new URL(c.req.url).search), flow);
      const deps = c.get('deps');
      const result = await signInWithOidc(
        { ...deps, logger: c.get('log') },
        {
          claims,
          signup: deps.accounts?.signup ?? 'invite',
          fileOrganizationKey: deps.accounts?.fileOrganizationKey,
          userAgent: c.req.header('user-agent'),
          address: requestClient(c),
        },
      );
      if (!result.ok) {
        c.get('log').info({ reason: result.reason, issuer: claims.issuer }, 'OpenID Connect sign-in refused');
        return toLogin(c, result.reason === 'no-account' ? 'no-account' : `oidc-${result.reason}`) as never;
      }
      setSessionCookie(c, result.token, result.session.expiresAt);
      setDeviceCookie(
        c,
        await rememberDevice({ ...deps, logger: c.get('log') }, { cookie: readDeviceCookie(c), userId: result.userId }),
      );
      return redirect(c, flow.next) as never;
    } catch (error) {
      return failed(c, error) as never;
    }
  });
}

/** `next` when it is a path under /app on this site; otherwise (another site, `//host`, `/app/../api`) the dashboard's start. */
export function sameSiteNext(next: string | undefined): string {
  if (next === undefined || next.length > NEXT_MAX_CHARS || !next.startsWith('/') || /[\\\u0000-\u001f]/.test(next))
    return DEFAULT_NEXT;
  const base = 'http://warden.invalid';
  const url = new URL(next, base);
  if (url.origin !== base || !/^\/app(\/|$)/.test(url.pathname)) return DEFAULT_NEXT;
  return url.pathname + url.search + url.hash;
}

function callbackUrl(c: Context<AppEnv>): string {
  return `${c.get('deps').baseUrl}${FLOW_PATH}/callback`;
}

function redirect(c: Context<AppEnv>, location: string): Response {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  return c.redirect(location, 302);
}

function toLogin(c: Context<AppEnv>, error: OidcLoginError): Response {
  return redirect(c, `${LOGIN_PAGE}?error=${error}`);
}

function failed(c: Context<AppEnv>, error: unknown): Response {
  if (!(error instanceof OidcFailure)) throw error;
  c.get('log').warn({ reason: error.reason, detail: error.message }, 'OpenID Connect sign-in failed');
  return toLogin(c, `oidc-${error.reason}`);
}

function notConfigured(c: Context<AppEnv>): Response {
  return problemResponse(
    c,
    problem(404, 'not-found', 'Not found', 'Sign-in with OpenID Connect is not configured on this server.'),
  );
}

// The flow cookie: the checks and `next`, written at the start, read and cleared at the callback.

interface Flow extends OidcChecks {
  next: string;
  /** When the flow began (epoch ms): older than OIDC_FLOW_LIFETIME_MS, the callback is refused. */
  at: number;
}

const flowSchema = z.object({
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  codeVerifier: z.string().min(43).max(128),
  next: z.string().max(NEXT_MAX_CHARS),
  at: z.number().int(),
});

function flowCookieName(c: Context<AppEnv>): string {
  return servedSecurely(c) ? `__Secure-${FLOW_COOKIE}` : FLOW_COOKIE;
}

function writeFlow(c: Context<AppEnv>, flow: Flow): void {
  const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
  const secure = servedSecurely(c);
  setCookie(c, flowCookieName(c), value, {
    path: FLOW_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    maxAge: OIDC_FLOW_LIFETIME_MS / 1000,
  });
}

function readFlow(c: Context<AppEnv>): Flow | null {
  const raw = getCookie(c, flowCookieName(c));
  if (raw === undefined || raw.length > 4096) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const flow = flowSchema.safeParse(parsed);
  if (!flow.success) return null;
  const age = c.get('deps').clock.now() - flow.data.at;
  if (age < 0 || age > OIDC_FLOW_LIFETIME_MS) return null;
  // Checked again: the cookie came back from the browser.
  return { ...flow.data, next: sameSiteNext(flow.data.next) };
}

function clearFlow(c: Context<AppEnv>): void {
  const secure = servedSecurely(c);
  if (getCookie(c, flowCookieName(c)) !== undefined)
    setCookie(c, flowCookieName(c), '', { path: FLOW_PATH, httpOnly: true, sameSite: 'Lax', secure, maxAge: 0 });
}
