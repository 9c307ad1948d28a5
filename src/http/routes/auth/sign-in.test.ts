// Signing in and out: POST /api/v1/auth/login, /logout and /password-reset, GET /api/v1/auth/config; the CSRF rule,
// the answers that must not tell an unknown email from a wrong password (the attempt limits: sign-in-limits.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, sessionSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
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
      expect(await res.json()).toEqual({
        setupRequired: true,
        localSetup: null,
        signup: 'invite',
        oidc: null,
        smtp: false,
      });
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
