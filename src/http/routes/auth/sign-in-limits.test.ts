// The attempt limits of signing in: per account from any address, per address whatever the account, and the known
// devices that let an owner in however many wrong guesses others make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../../test/accounts.js';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, deviceSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import { ACCOUNT_LIMITS } from '../../../domain/account.js';

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
  });
}
