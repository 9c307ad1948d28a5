// The TOTP second factor end to end, its codes computed with otpauth from the secret the enrolment answers (as an
// authenticator app would): enrolment, sign-in with a code or a recovery code (each once), new codes, turning it off.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, sessionSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';

const PROBLEMS = 'https://warden.dev/problems/';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`TOTP on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { loginAttemptsPerMinute: 1000 } });
    });
    afterAll(async () => {
      await h?.close();
    });
    /** The code an authenticator app shows for `secret` at the harness's time. */
    const codeOf = (secret: string, offsetMs = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h.clock.now() + offsetMs });
    const login = (email: string, password: string, code?: string) =>
      browse(h, 'POST', '/api/v1/auth/login', { body: { email, password, ...(code === undefined ? {} : { code }) } });

    /** A user with TOTP turned on through the API: their secret and recovery codes. */
    async function enrolled() {
      const user = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'admin' }]);
      const begin = await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token });
      expect(begin.status).toBe(200);
      const { secret, uri } = await begin.json();
      const confirm = await browse(h, 'POST', '/api/v1/auth/totp/confirm', {
        session: user.token,
        body: { code: codeOf(secret) },
      });
      expect(confirm.status).toBe(200);
      const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
      return { user, secret, uri: uri as string, recoveryCodes };
    }

    it('enrols an app: a secret and its otpauth:// URI (issuer Warden, the email), on once a code of it is right', async () => {
      const user = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'admin' }]);
      const begin = await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token });
      expect(begin.headers.get('cache-control')).toBe('no-store');
      const { secret, uri } = await begin.json();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const parsed = new URL(uri);
      expect(`${parsed.protocol}//${parsed.host}`).toBe('otpauth://totp');
      expect(decodeURIComponent(parsed.pathname)).toBe(`/Warden:${user.email}`);
      expect(parsed.searchParams.get('issuer')).toBe('Warden');
      expect(parsed.searchParams.get('secret')).toBe(secret);
      // Not on until confirmed: signing in needs no code yet.
      expect((await login(user.email, user.password)).status).toBe(200);
      const wrong = await browse(h, 'POST', '/api/v1/auth/totp/confirm', {
        session: user.token,
        body: { code: codeOf(secret, 5 * 60_000) },
      });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).errors[0].path).toBe('body.code');
      const confirm = await browse(h, 'POST', '/api/v1/auth/totp/confirm', {
        session: user.token,
        body: { code: codeOf(secret) },
      });
      expect(confirm.status).toBe(200);
      const { recoveryCodes } = await confirm.json();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      expect((await (await browse(h, 'GET', '/api/v1/auth/me', { session: user.token })).json()).user.totpEnabled).toBe(
        true,
      );
      // Only hashes are kept.
      const stored = JSON.stringify(await h.store.users.findById(user.userId));
      for (const code of recoveryCodes) expect(stored).not.toContain(code);
      expect((await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token })).status).toBe(409);
    });

    it('then asks for a code at sign-in (401 second-factor-required) and takes the current one, or the one before', async () => {
      const { user, secret } = await enrolled();
      const asked = await login(user.email, user.password);
      expect(asked.status).toBe(401);
      expect(asked.headers.get('set-cookie')).toBeNull();
      expect((await asked.json()).type).toMatch(/\/second-factor-required$/);
      const wrong = await login(user.email, user.password, codeOf(secret, 10 * 60_000));
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).type).toBe(`${PROBLEMS}invalid-second-factor`);
      // A right code never rescues a wrong password.
      const wrongPassword = await login(user.email, 'not the password', codeOf(secret));
      expect((await wrongPassword.json()).type).toBe(`${PROBLEMS}invalid-credentials`);
      // The next period's code (the window takes it); the confirming code was used up by the enrolment.
      expect((await login(user.email, user.password, codeOf(secret, 30_000))).status).toBe(200);
      h.clock.advance(90_000);
      expect((await login(user.email, user.password, ` ${codeOf(secret, -30_000)} `)).status).toBe(200);
      expect((await login(user.email, user.password, codeOf(secret))).status).toBe(200);
    });

    it('refuses a code used before: the same code a second time, an earlier one, and the code that confirmed enrolment', async () => {
      const { user, secret } = await enrolled();
      const confirming = await login(user.email, user.password, codeOf(secret));
      expect(confirming.status).toBe(401);
      expect((await confirming.json()).type).toBe(`${PROBLEMS}invalid-second-factor`);
      const code = codeOf(secret, 30_000);
      expect((await login(user.email, user.password, code)).status).toBe(200);
      const replayed = await login(user.email, user.password, code);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('set-cookie')).toBeNull();
      expect((await replayed.json()).type).toBe(`${PROBLEMS}invalid-second-factor`);
      // The one before is still inside the window, but older than the code already accepted.
      expect((await login(user.email, user.password, codeOf(secret))).status).toBe(401);
      // Two sign-ins racing with the next code: one session, not two.
      h.clock.advance(30_000);
      const racing = await Promise.all([1, 2, 3].map(() => login(user.email, user.password, codeOf(secret, 30_000))));
      expect(racing.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    });

    it('takes each recovery code once, in any case and with or without dashes', async () => {
      const { user, recoveryCodes } = await enrolled();
      const [first = '', second = ''] = recoveryCodes;
      expect((await login(user.email, user.password, first)).status).toBe(200);
      const reused = await login(user.email, user.password, first);
      expect(reused.status).toBe(401);
      expect((await reused.json()).type).toBe(`${PROBLEMS}invalid-second-factor`);
      expect((await login(user.email, user.password, second.replaceAll('-', '').toUpperCase())).status).toBe(200);
      expect((await login(user.email, user.password, 'aaaa-bbbb-cccc-dddd')).status).toBe(401);
    });

    it('makes new recovery codes, and the old ones stop working', async () => {
      const { user, recoveryCodes } = await enrolled();
      const res = await browse(h, 'POST', '/api/v1/auth/recovery-codes', { session: user.token });
      expect(res.status).toBe(200);
      const fresh: string[] = (await res.json()).recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect(fresh).not.toContain(recoveryCodes[0]);
      expect((await login(user.email, user.password, recoveryCodes[0])).status).toBe(401);
      expect((await login(user.email, user.password, fresh[0])).status).toBe(200);
    });

    it('turns off with the password or a code, not with a wrong one; then sign-in needs no code', async () => {
      const { user, secret } = await enrolled();
      const wrong = await browse(h, 'DELETE', '/api/v1/auth/totp', {
        session: user.token,
        body: { password: 'not the password' },
      });
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).errors).toEqual([{ path: 'body.password', message: 'is not your password' }]);
      const wrongCode = await browse(h, 'DELETE', '/api/v1/auth/totp', {
        session: user.token,
        body: { code: codeOf(secret, 10 * 60_000) },
      });
      expect((await wrongCode.json()).errors[0].path).toBe('body.code');
      expect(
        (
          await browse(h, 'DELETE', '/api/v1/auth/totp', {
            session: user.token,
            body: { code: codeOf(secret, 30_000) },
          })
        ).status,
      ).toBe(204);
      expect((await login(user.email, user.password)).status).toBe(200);
      expect((await browse(h, 'POST', '/api/v1/auth/recovery-codes', { session: user.token })).status).toBe(409);
      // And on again with the password next time round.
      const again = await enrolled();
      expect(
        (
          await browse(h, 'DELETE', '/api/v1/auth/totp', {
            session: again.user.token,
            body: { password: again.user.password },
          })
        ).status,
      ).toBe(204);
    });

    it('needs a fresh proof to begin, turn off or make new codes: the session’s sign-in for 5 minutes, then the password or a code', async () => {
      const { user, secret, recoveryCodes } = await enrolled();
      h.clock.advance(5 * 60_000 + 1);
      for (const [method, path] of [
        ['POST', '/api/v1/auth/recovery-codes'],
        ['DELETE', '/api/v1/auth/totp'],
      ] as const) {
        const stale = await browse(h, method, path, { session: user.token });
        expect(stale.status, path).toBe(403);
        expect(stale.headers.get('content-type')).toBe('application/problem+json');
        const problem = await stale.json();
        expect(problem.type).toBe(`${PROBLEMS}reauthentication-required`);
        expect(problem.detail).toMatch(/password.*code/);
      }
      // Still on, the codes unchanged.
      expect((await login(user.email, user.password, recoveryCodes[0])).status).toBe(200);
      // A code with the request proves it, and counts for the next few minutes.
      const fresh = await browse(h, 'POST', '/api/v1/auth/recovery-codes', {
        session: user.token,
        body: { code: codeOf(secret, 30_000) },
      });
      expect(fresh.status).toBe(200);
      h.clock.advance(4 * 60_000);
      expect((await browse(h, 'DELETE', '/api/v1/auth/totp', { session: user.token })).status).toBe(204);
      // Enrolling again later: the password with the request.
      h.clock.advance(5 * 60_000 + 1);
      expect((await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token })).status).toBe(403);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token, body: { password: 'not the password' } }))
          .status,
      ).toBe(400);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token, body: { password: user.password } }))
          .status,
      ).toBe(200);
    });

    it('takes a new sign-in as the proof, in that browser only', async () => {
      const { user, secret } = await enrolled();
      h.clock.advance(10 * 60_000);
      expect((await browse(h, 'POST', '/api/v1/auth/recovery-codes', { session: user.token })).status).toBe(403);
      const signedIn = await login(user.email, user.password, codeOf(secret));
      expect(signedIn.status).toBe(200);
      const again = sessionSet(signedIn);
      expect((await browse(h, 'POST', '/api/v1/auth/recovery-codes', { session: again })).status).toBe(200);
      expect((await browse(h, 'POST', '/api/v1/auth/recovery-codes', { session: user.token })).status).toBe(403);
    });

    it('needs a session and the own origin', async () => {
      const user = await signedInUser(h.context, [{ organizationId: h.a.id, role: 'admin' }]);
      expect((await browse(h, 'POST', '/api/v1/auth/totp')).status).toBe(401);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/totp', { session: user.token, origin: 'https://evil.test' })).status,
      ).toBe(403);
      expect(
        (await browse(h, 'POST', '/api/v1/auth/totp/confirm', { session: user.token, body: { code: '123456' } }))
          .status,
      ).toBe(409);
    });
  });
}
