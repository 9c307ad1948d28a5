// Signing in to the dashboard in real Chromium against a real Warden serving dist/web: a visitor without a session is
// sent to sign in and back, a user signs in with a password and a second factor (a wrong password announced) and out;
// no CSP violation and no serious accessibility violation.
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { seriousViolations, shellDashboard } from './dashboard-harness.js';

describe('the dashboard', () => {
  const d = shellDashboard();

  it('sends a visitor without a session to sign in, and comes back to where they were going', async () => {
    const { context, page, cspErrors } = await d.open('/app/monitors?state=down', { signedIn: false });
    try {
      await page.waitForURL(/\/app\/login\?next=/);
      expect(new URL(page.url()).searchParams.get('next')).toBe('/monitors?state=down');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.getByLabel('Email').isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs in with email, password and the authenticator’s code, announcing a wrong password, and signs out', async () => {
    const editor = await d.user([{ organizationId: d.warden.organizationId, role: 'editor' }]);
    const secret = new Secret({ size: 20 }).base32;
    await d.warden.opened.store.users.setTotp(editor.userId, { secret, enabledAt: Date.now() }, Date.now());
    const { context, page, cspErrors } = await d.open('/app/login?next=%2Fmonitors%3Fq%3Dlobby', { signedIn: false });
    try {
      await page.getByLabel('Email').fill(editor.email);
      await page.getByLabel(/^Password/).fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Could not sign in' }).waitFor();
      expect(await page.getByRole('alert').textContent()).not.toContain('not the password');

      await page.getByLabel(/^Password/).fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel(/^Authentication code/).fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/app\/monitors\?q=lobby$/);
      await expect.poll(() => page.getByRole('table', { name: 'Monitors' }).getByRole('row').count()).toBe(2);
      // The session, and the known-device cookie that keeps this browser's right password past others' guesses.
      expect((await context.cookies()).map((c) => [c.name, c.httpOnly])).toEqual([
        ['warden_session', true],
        ['warden_device', true],
      ]);

      await page.getByRole('button', { name: /^Account menu of / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/app\/login/);
      // Signed out: the session is gone; the browser stays a known device.
      expect((await context.cookies()).map((c) => c.name)).toEqual(['warden_device']);
      await page.goto(`${d.warden.url}/app/monitors`);
      await page.waitForURL(/\/app\/login\?next=/);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
