// Signing in and out: POST /api/v1/auth/login, /logout and /password-reset, GET /api/v1/auth/config; the CSRF rule,
// the answers that must not tell an unknown email from a wrong password, and the attempt limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, deviceSet, sessionSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';
import { passwordLinkFor } from '../../../services/accounts/password-reset.js';

const PROBLEMS = 'https://warden.dev/problems/';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`signing in on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      // Three wrong attempts a minute, and X-Forwarded-For trusted, so a test can come from several addresses.
      h = await openApiHarness(dialect, { security: { loginAttemptsPerMinute: 3, trustProxy: true } });
    });
    afterAll(async () => {
      await h?.close();
    });
    const member = (email?: string) =>
      signedInUser(h.context, [{ organizationId: h.a.id, role: 'editor' }], email ? { email } : {});
    const from = (address: string) => ({ 'x-forwarded-for': address });

    it('answers the public sign-in options, never cached', async () => {
      const res = await browse(h, 'GET', '/api/v1/auth/config');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ setupRequired: true, signup: 'invite', oidc: null, smtp: false });
      await member();
      expect((await (await browse(h, 'GET', '/api/v1/auth/config')).json()).setupRequired).toBe(false);
    });

    it('signs in with email and password: the account, and an HttpOnly SameSite cookie that opens the organization API', async () => {
      const user = await member('Ada@Example.com'.toLowerCase());
      const res = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: '  ADA@example.com ', password: user.password },
        headers: from('10.0.0.1'),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({
        user: {
          id: user.userId,
          email: 'ada@example.com',
          emailVerified: true,
          name: 'ada',
          hasPassword: true,
          totpEnabled: false,
        },
        organizations: [{ id: h.a.id, key: 'alpha', name: 'Alpha', role: 'editor' }],
      });
      const [cookie, device] = res.headers.getSetCookie();
      expect(cookie).toMatch(/^warden_session=wds_[\w-]+; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(device).toMatch(
        /^warden_device=usr_\w+\.[\w-]+\.\d+\.[\w-]+; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Strict$/,
      );
      const session = sessionSet(res);
      expect((await browse(h, 'GET', '/api/v1/monitors', { session })).status).toBe(200);
      // The session remembers where it came from.
      const sessions = await (
        await browse(h, 'GET', '/api/v1/auth/sessions', { session, headers: { 'user-agent': 'Firefox' } })
      ).json();
      expect(sessions.sessions.find((s: { current: boolean }) => s.current)).toMatchObject({ address: '10.0.0.1' });
    });

    it('answers a wrong password and an unknown email alike, setting no cookie', async () => {
      const user = await member();
      const wrong = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'not the password' },
        headers: from('10.0.1.1'),
      });
      const unknown = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: 'nobody@example.com', password: 'not the password' },
        headers: from('10.0.1.2'),
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.headers.get('set-cookie')).toBeNull();
      expect(await wrong.json()).toEqual(await unknown.json());
    });

    it('names the invalid field of a sign-in', async () => {
      const res = await browse(h, 'POST', '/api/v1/auth/login', { body: { email: 'not-an-email', password: '' } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'body.email',
        'body.password',
      ]);
    });

    it('refuses sign-ins and sign-outs from another site (403), and takes same-origin fetches without an Origin', async () => {
      const user = await member();
      const body = { email: user.email, password: user.password };
      for (const origin of ['https://evil.test', null]) {
        const res = await browse(h, 'POST', '/api/v1/auth/login', { body, origin });
        expect(res.status, String(origin)).toBe(403);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      expect(
        (await browse(h, 'POST', '/api/v1/auth/logout', { session: user.token, origin: 'https://evil.test' })).status,
      ).toBe(403);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).status).toBe(200);
      const sameSite = await browse(h, 'POST', '/api/v1/auth/login', {
        body,
        origin: null,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(sameSite.status).toBe(200);
    });

    it('signs out: the session ends and the cookie is cleared', async () => {
      const user = await member();
      const res = await browse(h, 'POST', '/api/v1/auth/logout', { session: user.token });
      expect(res.status).toBe(204);
      expect(res.headers.get('set-cookie')).toMatch(/^warden_session=; Max-Age=0/);
      const after = await browse(h, 'GET', '/api/v1/auth/me', { session: user.token });
      expect(after.status).toBe(401);
      expect((await after.json()).type).toBe(`${PROBLEMS}unauthorized`);
      // Signing out twice is no error.
      expect((await browse(h, 'POST', '/api/v1/auth/logout', { session: user.token })).status).toBe(204);
    });

    it('refuses an account after too many wrong passwords, from any address, until the minute is over (429 + Retry-After)', async () => {
      const user = await member();
      for (const n of [1, 2, 3]) {
        const res = await browse(h, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password: `wrong ${n}` },
          headers: from(`10.1.0.${n}`),
        });
        expect(res.status).toBe(401);
      }
      const limited = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
        headers: from('10.1.0.9'),
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await limited.json()).type).toBe(`${PROBLEMS}too-many-attempts`);
      // Another account is not affected.
      const other = await member();
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: other.email, password: other.password },
            headers: from('10.1.0.9'),
          })
        ).status,
      ).toBe(200);
      h.clock.advance(61_000);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: user.email, password: user.password },
            headers: from('10.1.0.9'),
          })
        ).status,
      ).toBe(200);
    });

    it('lets the owner in from a known device however many wrong guesses others make at the account', async () => {
      const owner = await member();
      const login = (password: string, address: string, device?: string) =>
        browse(h, 'POST', '/api/v1/auth/login', {
          body: { email: owner.email, password },
          headers: { ...from(address), ...(device ? { cookie: `warden_device=${device}` } : {}) },
        });
      // Signing in once makes the browser a known device of the account: a signed, HttpOnly, long-lived cookie.
      const first = await login(owner.password, '10.3.0.1');
      expect(first.status).toBe(200);
      expect(first.headers.get('set-cookie')).toMatch(
        /warden_device=[^;]+; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Strict/,
      );
      const device = deviceSet(first) as string;
      expect(device).toContain(owner.userId);

      // One client keeps the account's limit full (and its own address's)...
      for (const n of [1, 2, 3]) expect((await login(`wrong ${n}`, '10.3.0.66')).status).toBe(401);
      expect((await login('wrong 4', '10.3.0.66')).status).toBe(429);
      // ...which stops every browser the account was never signed in from, as it stops guessing,
      expect((await login(owner.password, '10.3.0.2')).status).toBe(429);
      // but not the owner's known device — even from the guesser's own address.
      const known = await login(owner.password, '10.3.0.66', device);
      expect(known.status).toBe(200);
      expect(deviceSet(known)?.split('.').slice(0, 2)).toEqual(device.split('.').slice(0, 2));

      // A known device's own wrong guesses count against it alone: still three a minute.
      for (const n of [1, 2, 3]) expect((await login(`typo ${n}`, '10.3.0.1', device)).status).toBe(401);
      expect((await login(owner.password, '10.3.0.1', device)).status).toBe(429);

      // Another account's cookie, or a forged one, makes no browser known for this account.
      const other = await member();
      const otherDevice = deviceSet(
        await browse(h, 'POST', '/api/v1/auth/login', {
          body: { email: other.email, password: other.password },
          headers: from('10.3.0.3'),
        }),
      );
      expect((await login(owner.password, '10.3.0.4', otherDevice)).status).toBe(429);
      const [userId, deviceId, expires] = device.split('.');
      expect(
        (
          await login(
            owner.password,
            '10.3.0.4',
            `${userId}.${deviceId}.${Number(expires) + 1}.${device.split('.')[3]}`,
          )
        ).status,
      ).toBe(429);
      h.clock.advance(61_000);
    });

    it(`remembers the last ${ACCOUNT_LIMITS.knownDeviceUsers} users a browser signed in as, each for 180 days`, async () => {
      let device: string | undefined;
      const users = [];
      for (let n = 0; n <= ACCOUNT_LIMITS.knownDeviceUsers; n++) {
        const user = await member();
        users.push(user);
        const res = await browse(h, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password: user.password },
          headers: { ...from('10.4.0.1'), ...(device ? { cookie: `warden_device=${device}` } : {}) },
        });
        device = deviceSet(res);
      }
      const named = (device ?? '').split('~').map((entry) => entry.split('.')[0]);
      expect(named).toEqual(
        users
          .slice(1)
          .map((u) => u.userId)
          .reverse(),
      );
      h.clock.advance(ACCOUNT_LIMITS.knownDeviceLifetimeMs);
      // Expired: the next sign-in starts the cookie afresh.
      const last = users.at(-1) as (typeof users)[number];
      const again = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: last.email, password: last.password },
        headers: { ...from('10.4.0.1'), cookie: `warden_device=${device}` },
      });
      expect(deviceSet(again)?.split('~')).toHaveLength(1);
    });

    it('refuses an address after too many wrong passwords, whatever the account', async () => {
      const user = await member();
      for (const n of [1, 2, 3]) {
        const res = await browse(h, 'POST', '/api/v1/auth/login', {
          body: { email: `guess${n}@example.com`, password: 'wrong password' },
          headers: from('10.2.0.1'),
        });
        expect(res.status).toBe(401);
      }
      const limited = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
        headers: from('10.2.0.1'),
      });
      expect(limited.status).toBe(429);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: user.email, password: user.password },
            headers: from('10.2.0.2'),
          })
        ).status,
      ).toBe(200);
      h.clock.advance(61_000);
    });

    it('caps the body (413)', async () => {
      const res = await browse(h, 'POST', '/api/v1/auth/login', {
        body: { email: 'a@example.com', password: 'x'.repeat(300_000) },
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('sets a password with a one-time link, ending every session of the user; the link works once', async () => {
      const user = await member();
      const { url } = await passwordLinkFor(h.context, user.userId);
      const token = new URL(url).searchParams.get('token');
      expect(url).toMatch(/^http:\/\/warden\.test\/app\/reset\?token=wdu_/);
      const res = await browse(h, 'POST', '/api/v1/auth/password-reset', {
        body: { token, password: 'a brand new password' },
      });
      expect(res.status).toBe(204);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).status).toBe(401);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: user.email, password: 'a brand new password' },
          })
        ).status,
      ).toBe(200);
      const again = await browse(h, 'POST', '/api/v1/auth/password-reset', {
        body: { token, password: 'yet another password' },
      });
      expect(again.status).toBe(410);
      expect((await again.json()).type).toBe(`${PROBLEMS}link-unusable`);
      const short = await browse(h, 'POST', '/api/v1/auth/password-reset', { body: { token, password: 'short' } });
      expect((await short.json()).errors).toEqual([
        { path: 'body.password', message: 'expected at least 10 characters' },
      ]);
    });

    it('refuses an expired password link', async () => {
      const user = await member();
      const token = new URL((await passwordLinkFor(h.context, user.userId)).url).searchParams.get('token');
      h.clock.advance(3600_000 + 1);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/password-reset', { body: { token, password: 'a brand new password' } }))
          .status,
      ).toBe(410);
    });
  });
}
