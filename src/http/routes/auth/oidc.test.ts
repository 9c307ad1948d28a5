// Sign in with OpenID Connect against a real provider (oidc-provider on 127.0.0.1): Warden on a real port, a browser
// played by fetch with a cookie jar, the provider's login and consent forms submitted as a person would.
// First, as in main.ts: zod learns .openapi() before any schema is made.
import '@hono/zod-openapi';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { Browser, type Setup, startWardenWithProvider, stop } from '../../../../test/oidc-warden.js';
import { type DialectCase, dialects } from '../../../../test/store-dialects.js';
import { composeWarden } from '../../../compose.js';
import type { AccountSettings } from '../../../config/settings.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { newId } from '../../../domain/ids.js';
import { generateSecret, hashSecret } from '../../../domain/tokens.js';
import { createLogger } from '../../../logger.js';
import { authenticateSession } from '../../../services/accounts/authenticate-session.js';
import { OIDC_FLOW_LIFETIME_MS, sameSiteNext } from './oidc.js';

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`sign in with OpenID Connect on ${dialect.name}`, () => {
    let s: Setup;
    beforeAll(async () => {
      s = await startWardenWithProvider(dialect);
    });
    afterAll(async () => {
      await stop(s);
    });
    afterEach(() => {
      s.accounts.signup = 'invite';
      s.clock.offsetMs = 0;
    });

    /** One sign-in by a fresh browser: start at Warden, log in as `login` at the provider, consent, and back. */
    async function signIn(
      login: string,
      options: { next?: string; tamper?: (callback: URL) => void; beforeCallback?: () => void } = {},
    ) {
      const browser = new Browser();
      let url = new URL(
        `${s.url}/api/v1/auth/oidc/start${options.next === undefined ? '' : `?next=${encodeURIComponent(options.next)}`}`,
      );
      let response = await browser.fetch(url);
      for (let step = 0; step < 20; step++) {
        const location = response.headers.get('location');
        if (location !== null) {
          const target = new URL(location, url);
          if (target.origin === s.url && !target.pathname.startsWith('/api/v1/auth/oidc/'))
            return { response, browser, location };
          if (target.pathname === '/api/v1/auth/oidc/callback') {
            options.tamper?.(target);
            options.beforeCallback?.();
          }
          url = target;
          response = await browser.fetch(url);
          continue;
        }
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
        if (!action || !prompt)
          throw new Error(`unexpected page at ${url.href} (${response.status}): ${html.slice(0, 300)}`);
        url = new URL(action, url);
        response = await browser.fetch(url, {
          method: 'POST',
          form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
        });
      }
      throw new Error('too many steps');
    }

    const sessionUser = async (browser: Browser) => {
      const token = browser.cookie(s.url, 'warden_session');
      return token === undefined ? null : ((await authenticateSession(s.parts.context, { token }))?.user ?? null);
    };

    it('signs in the user with the verified email, links the identity, and goes by it afterwards whatever the email', async () => {
      const ada = await signedInUser(s.parts.context, [{ organizationId: s.organizationId, role: 'editor' }], {
        email: 'ada@example.com',
        name: 'Ada',
      });
      const other = await signedInUser(s.parts.context, [], { email: 'grace@example.com' });
      s.provider.people.set('ada-sub', { email: 'Ada@Example.com', email_verified: true, name: 'Ada L.' });

      const first = await signIn('ada-sub', { next: '/app/monitors?state=down' });
      expect(first.response.status).toBe(302);
      expect(first.location).toBe('/app/monitors?state=down');
      expect((await sessionUser(first.browser))?.id).toBe(ada.userId);
      expect(await s.parts.context.store.users.findIdentity(s.provider.issuer, 'ada-sub')).toMatchObject({
        userId: ada.userId,
        email: 'ada@example.com',
      });
      // The cookie is a real session: the organization API answers it.
      const monitors = await fetch(`${s.url}/api/v1/monitors`, {
        headers: { cookie: `warden_session=${first.browser.cookie(s.url, 'warden_session')}` },
      });
      expect(monitors.status).toBe(200);
      // The flow's cookie is gone once used.
      expect(first.browser.cookie(s.url, 'warden_oidc')).toBeUndefined();

      // The provider now says another user's address: the linked identity still decides.
      s.provider.people.set('ada-sub', { email: other.email, email_verified: true, name: 'Ada L.' });
      const second = await signIn('ada-sub');
      expect(second.location).toBe('/app');
      expect((await sessionUser(second.browser))?.id).toBe(ada.userId);
    });

    it('links no identity to an account whose address was never confirmed (someone may have typed it in), until it is', async () => {
      const squatter = await signedInUser(s.parts.context, [{ organizationId: s.organizationId, role: 'owner' }], {
        email: 'dana@example.com',
        verified: false,
      });
      s.provider.people.set('dana-sub', { email: 'dana@example.com', email_verified: true, name: 'Dana' });
      const refused = await signIn('dana-sub');
      expect(refused.location).toBe('/app/login?error=oidc-account-unverified');
      expect(refused.browser.cookie(s.url, 'warden_session')).toBeUndefined();
      expect(await s.parts.context.store.users.findIdentity(s.provider.issuer, 'dana-sub')).toBeUndefined();
      // Confirmed (here by the operator): the provider's person is that account's.
      await s.parts.context.store.users.update(squatter.userId, { emailVerifiedAt: Date.now() }, Date.now());
      const linked = await signIn('dana-sub');
      expect((await sessionUser(linked.browser))?.id).toBe(squatter.userId);
    });

    it('refuses an email the provider has not verified, and one it does not give', async () => {
      await signedInUser(s.parts.context, [{ organizationId: s.organizationId, role: 'admin' }], {
        email: 'bob@example.com',
      });
      s.provider.people.set('bob-sub', { email: 'bob@example.com', email_verified: false });
      const unverified = await signIn('bob-sub');
      expect(unverified.location).toBe('/app/login?error=oidc-email-unverified');
      expect(unverified.browser.cookie(s.url, 'warden_session')).toBeUndefined();
      expect(await s.parts.context.store.users.findIdentity(s.provider.issuer, 'bob-sub')).toBeUndefined();

      s.provider.people.set('nomail-sub', { name: 'No Mail' });
      expect((await signIn('nomail-sub')).location).toBe('/app/login?error=oidc-no-email');
    });

    it('refuses an unknown email while sign-up is by invitation, and creates the user and an organization when it is open', async () => {
      s.provider.people.set('carol-sub', { email: 'carol.smith@example.org', email_verified: true, name: 'Carol' });
      const refused = await signIn('carol-sub');
      expect(refused.location).toBe('/app/login?error=no-account');
      expect(await s.parts.context.store.users.findByEmail('carol.smith@example.org')).toBeUndefined();

      s.accounts.signup = 'open';
      const created = await signIn('carol-sub', { next: '/app/' });
      expect(created.location).toBe('/app/');
      const user = await sessionUser(created.browser);
      expect(user).toMatchObject({ email: 'carol.smith@example.org', name: 'Carol', hasPassword: false });
      const memberships = await s.parts.context.store.memberships.listByUser(user?.id ?? '');
      expect(memberships.map((m) => ({ key: m.organization.key, name: m.organization.name, role: m.role }))).toEqual([
        { key: 'carol-smith', name: "Carol's organization", role: 'owner' },
      ]);

      // Another Carol at another domain gets a key of her own.
      s.provider.people.set('carol2-sub', { email: 'carol.smith@example.net', email_verified: true });
      const second = await sessionUser((await signIn('carol2-sub')).browser);
      const [own] = await s.parts.context.store.memberships.listByUser(second?.id ?? '');
      expect(own?.organization).toMatchObject({ key: 'carol-smith-2', name: "carol.smith's organization" });
    });

    it('lets a person in with an invitation awaiting their email, with its role, and uses the invitation up', async () => {
      const now = s.parts.context.clock.now();
      const invitation = {
        id: newId('inv'),
        organizationId: s.organizationId,
        email: 'dave@example.com',
        role: 'viewer' as const,
        createdBy: null,
        createdAt: now,
        expiresAt: now + ACCOUNT_LIMITS.invitationLifetimeMs,
        acceptedAt: null,
        acceptedBy: null,
        revokedAt: null,
      };
      await s.parts.context.store.invitations.insert({ ...invitation, hash: hashSecret(generateSecret('invitation')) });
      s.provider.people.set('dave-sub', { email: 'dave@example.com', email_verified: true, name: 'Dave' });

      // Closed sign-up lets nobody new in, invited or not, as with a password.
      s.accounts.signup = 'closed';
      expect((await signIn('dave-sub')).location).toBe('/app/login?error=no-account');
      s.accounts.signup = 'invite';
      const joined = await signIn('dave-sub', { next: '/app/monitors' });
      expect(joined.location).toBe('/app/monitors');
      const user = await sessionUser(joined.browser);
      expect(await s.parts.context.store.memberships.find(s.organizationId, user?.id ?? '')).toMatchObject({
        role: 'viewer',
      });
      expect(
        await s.parts.context.store.invitations.listPendingForEmail('dave@example.com', s.parts.context.clock.now()),
      ).toEqual([]);
      const [entry] = await s.parts.context.store.audit.list({
        organizationId: s.organizationId,
        limit: 5,
        objectType: 'invitation',
      });
      expect(entry).toMatchObject({ action: 'invitation.accept', actorId: user?.id, objectId: invitation.id });
    });

    it('refuses a callback whose state was tampered with, one without its flow cookie, and one that came too late', async () => {
      s.provider.people.set('eve-sub', { email: 'eve@example.com', email_verified: true });
      s.accounts.signup = 'open';
      const tampered = await signIn('eve-sub', {
        tamper: (callback) => callback.searchParams.set('state', 'forged-state-value'),
      });
      expect(tampered.location).toBe('/app/login?error=oidc-failed');
      expect(tampered.browser.cookie(s.url, 'warden_session')).toBeUndefined();

      const bare = await fetch(`${s.url}/api/v1/auth/oidc/callback?code=x&state=y`, { redirect: 'manual' });
      expect(bare.headers.get('location')).toBe('/app/login?error=oidc-expired');

      const late = await signIn('eve-sub', { beforeCallback: () => (s.clock.offsetMs = OIDC_FLOW_LIFETIME_MS + 1000) });
      expect(late.location).toBe('/app/login?error=oidc-expired');
      expect(await s.parts.context.store.users.findByEmail('eve@example.com')).toBeUndefined();
      // Nothing the provider or Warden holds secret reached the log.
      const log = s.logs.join('\n');
      expect(log).toContain('OpenID Connect sign-in failed');
      expect(log).not.toContain(s.provider.clientSecret);
      expect(log).not.toMatch(/code_verifier|access_token|id_token/);
    });

    it('ignores a next that leaves the dashboard', async () => {
      s.provider.people.set('frank-sub', { email: 'frank@example.com', email_verified: true });
      await signedInUser(s.parts.context, [], { email: 'frank@example.com' });
      expect((await signIn('frank-sub', { next: 'https://evil.example/app' })).location).toBe('/app');
      expect((await signIn('frank-sub', { next: '/app/../api/v1/monitors' })).location).toBe('/app');
    });
  });

describe('the next path after signing in', () => {
  it('keeps paths under /app and drops everything else', () => {
    expect(sameSiteNext('/app')).toBe('/app');
    expect(sameSiteNext('/app/monitors/mon_1?range=7d#chart')).toBe('/app/monitors/mon_1?range=7d#chart');
    for (const outside of [
      undefined,
      '',
      'app',
      '//evil.example/app',
      '/\\evil.example',
      'https://evil.example/app',
      '/application',
      '/app/../s/x',
      '/api/v1',
      `/app/${'x'.repeat(3000)}`,
    ])
      expect(sameSiteNext(outside), String(outside)).toBe('/app');
  });
});

describe('without a reachable or configured provider', () => {
  it('answers 404 when none is configured and sends the browser back when it cannot be reached', async () => {
    const opened = await (dialects[0] as DialectCase).open();
    try {
      const compose = (accounts?: AccountSettings) =>
        composeWarden({
          store: opened.store,
          clock: { now: () => Date.now() },
          logger: createLogger('silent'),
          baseUrl: () => 'http://warden.test',
          ...(accounts ? { accounts } : {}),
        });
      const none = await compose().app.request('/api/v1/auth/oidc/start?next=/app');
      expect(none.status).toBe(404);
      expect(none.headers.get('content-type')).toContain('application/problem+json');
      const down = await compose({
        signup: 'invite',
        oidc: { issuer: 'http://127.0.0.1:9', clientId: 'warden', clientSecret: 'not-used', name: 'Down' },
      }).app.request('/api/v1/auth/oidc/start');
      expect(down.status).toBe(302);
      expect(down.headers.get('location')).toBe('/app/login?error=oidc-unavailable');
    } finally {
      await opened.cleanup();
    }
  });
});
