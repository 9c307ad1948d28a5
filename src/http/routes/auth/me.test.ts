// The signed-in user's own account: GET/PATCH /api/v1/auth/me, POST /api/v1/auth/password, and their sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import { issueSession } from '../../../services/accounts/issue-session.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the signed-in user's account on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { loginAttemptsPerMinute: 3 } });
    });
    afterAll(async () => {
      await h?.close();
    });
    const owner = () =>
      signedInUser(h.context, [
        { organizationId: h.a.id, role: 'owner' },
        { organizationId: h.b.id, role: 'viewer' },
      ]);
    /** Another browser signed in as the same user. */
    const anotherSession = async (userId: string) =>
      (await issueSession(h.context, { userId, userAgent: 'Phone' })).token;

    it('answers 401 without a session, and the user with their organizations and roles with one', async () => {
      const user = await owner();
      const anonymous = await browse(h, 'GET', '/api/v1/auth/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('cache-control')).toBe('no-store');
      const res = await browse(h, 'GET', '/api/v1/auth/me', { session: user.token, origin: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({
        user: {
          id: user.userId,
          email: user.email,
          emailVerified: true,
          name: user.email.split('@')[0],
          hasPassword: true,
          totpEnabled: false,
        },
        organizations: [
          { id: h.a.id, key: 'alpha', name: 'Alpha', role: 'owner' },
          { id: h.b.id, key: 'beta', name: 'Beta', role: 'viewer' },
        ],
      });
    });

    it('moves the cookie’s end forward with the session’s, at most once a minute', async () => {
      const user = await owner();
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).headers.get('set-cookie')).toBeNull();
      h.clock.advance(24 * 3600_000);
      const later = await browse(h, 'GET', '/api/v1/auth/me', { session: user.token });
      expect(later.headers.get('set-cookie')).toBe(
        `warden_session=${user.token}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Lax`,
      );
      h.clock.advance(30_000);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).headers.get('set-cookie')).toBeNull();
    });

    it('changes the name at once; an email only through a mailed link, which a server without mail cannot send', async () => {
      const user = await owner();
      const res = await browse(h, 'PATCH', '/api/v1/auth/me', {
        session: user.token,
        body: { name: ' Grace Hopper ' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ user: { name: 'Grace Hopper', email: user.email }, emailChange: null });
      // The same address, already confirmed: nothing to do.
      expect(
        (
          await browse(h, 'PATCH', '/api/v1/auth/me', {
            session: user.token,
            body: { email: user.email.toUpperCase() },
          })
        ).status,
      ).toBe(200);
      const refused = await browse(h, 'PATCH', '/api/v1/auth/me', {
        session: user.token,
        body: { name: 'Grace H.', email: 'Grace@Example.COM', password: user.password },
      });
      expect(refused.status).toBe(409);
      const problem = await refused.json();
      expect(problem.type).toBe('https://warden.dev/problems/mail-required');
      expect(problem.detail).toContain('warden users set-email');
      const account = await (await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).json();
      expect(account.user).toMatchObject({ name: 'Grace Hopper', email: user.email });
      const invalid = await browse(h, 'PATCH', '/api/v1/auth/me', {
        session: user.token,
        body: { email: 'grace', name: '' },
      });
      expect((await invalid.json()).errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'body.email',
        'body.name',
      ]);
    });

    it('refuses changes from another site (403) and without a session (401)', async () => {
      const user = await owner();
      expect(
        (
          await browse(h, 'PATCH', '/api/v1/auth/me', {
            session: user.token,
            body: { name: 'Mallory' },
            origin: 'https://evil.test',
          })
        ).status,
      ).toBe(403);
      expect((await browse(h, 'PATCH', '/api/v1/auth/me', { body: { name: 'Mallory' } })).status).toBe(401);
      expect((await (await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).json()).user.name).not.toBe(
        'Mallory',
      );
    });

    it('changes the password with the current one, ending the other sessions and keeping this one', async () => {
      const user = await owner();
      const phone = await anotherSession(user.userId);
      const wrong = await browse(h, 'POST', '/api/v1/auth/password', {
        session: user.token,
        body: { currentPassword: 'not my password', newPassword: 'a brand new password' },
      });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).errors).toEqual([
        { path: 'body.currentPassword', message: 'is not your current password' },
      ]);
      const missing = await browse(h, 'POST', '/api/v1/auth/password', {
        session: user.token,
        body: { newPassword: 'a brand new password' },
      });
      expect((await missing.json()).errors).toEqual([{ path: 'body.currentPassword', message: 'expected a password' }]);
      const res = await browse(h, 'POST', '/api/v1/auth/password', {
        session: user.token,
        body: { currentPassword: user.password, newPassword: 'a brand new password' },
      });
      expect(res.status).toBe(204);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: phone })).status).toBe(401);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).status).toBe(200);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: user.password } }))
          .status,
      ).toBe(401);
      expect(
        (
          await browse(h, 'POST', '/api/v1/auth/login', {
            body: { email: user.email, password: 'a brand new password' },
          })
        ).status,
      ).toBe(200);
    });

    it('gives no first password to an account without one (it signs in with OpenID Connect)', async () => {
      const user = await owner();
      await h.store.users.update(user.userId, { passwordHash: null }, h.clock.now());
      const res = await browse(h, 'POST', '/api/v1/auth/password', {
        session: user.token,
        body: { currentPassword: 'anything at all', newPassword: 'a brand new password' },
      });
      expect(res.status).toBe(409);
      expect((await h.store.users.findById(user.userId))?.passwordHash).toBeNull();
    });

    it('limits wrong current passwords like wrong sign-ins', async () => {
      // A fresh minute: the wrong passwords of the tests before (all from the same in-process client) are forgotten.
      h.clock.advance(61_000);
      const user = await owner();
      for (let n = 0; n < 3; n++)
        expect(
          (
            await browse(h, 'POST', '/api/v1/auth/password', {
              session: user.token,
              body: { currentPassword: `wrong ${n}`, newPassword: 'a brand new password' },
            })
          ).status,
        ).toBe(400);
      const limited = await browse(h, 'POST', '/api/v1/auth/password', {
        session: user.token,
        body: { currentPassword: user.password, newPassword: 'a brand new password' },
      });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).not.toBeNull();
      h.clock.advance(61_000);
    });

    it('counts a wrong password sent as a fresh proof like a wrong sign-in', async () => {
      h.clock.advance(61_000);
      const user = await owner();
      for (let n = 0; n < 3; n++)
        expect(
          (await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token, body: { password: `wrong ${n}` } }))
            .status,
        ).toBe(400);
      const limited = await browse(h, 'POST', '/api/v1/auth/totp', {
        session: user.token,
        body: { password: user.password },
      });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).not.toBeNull();
      // A session that signed in just now needs no password, so it is not held up by the count.
      expect((await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token })).status).toBe(200);
      h.clock.advance(61_000);
    });

    it('lists the user’s sessions, marking this one, and ends another: its cookie stops working at once', async () => {
      const user = await owner();
      const phone = await anotherSession(user.userId);
      const stranger = await owner();
      const { sessions } = await (await browse(h, 'GET', '/api/v1/auth/sessions', { session: user.token })).json();
      expect(sessions).toHaveLength(2);
      expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      const phoneSession = sessions.find((s: { userAgent: string }) => s.userAgent === 'Phone');
      expect(phoneSession.current).toBe(false);
      // Another user's session is not yours to end.
      expect(
        (await browse(h, 'DELETE', `/api/v1/auth/sessions/${phoneSession.id}`, { session: stranger.token })).status,
      ).toBe(404);
      expect(
        (await browse(h, 'DELETE', '/api/v1/auth/sessions/ses_nosuchsession', { session: user.token })).status,
      ).toBe(404);
      const res = await browse(h, 'DELETE', `/api/v1/auth/sessions/${phoneSession.id}`, { session: user.token });
      expect(res.status).toBe(204);
      const revoked = await browse(h, 'GET', '/api/v1/monitors', { session: phone });
      expect(revoked.status).toBe(401);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: phone })).status).toBe(401);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).status).toBe(200);
    });

    it('ending this very session signs the browser out', async () => {
      const user = await owner();
      const { sessions } = await (await browse(h, 'GET', '/api/v1/auth/sessions', { session: user.token })).json();
      const res = await browse(h, 'DELETE', `/api/v1/auth/sessions/${sessions[0].id}`, { session: user.token });
      expect(res.status).toBe(204);
      expect(res.headers.get('set-cookie')).toMatch(/^warden_session=; Max-Age=0/);
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).status).toBe(401);
    });
  });
}
