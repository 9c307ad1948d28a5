// The dashboard's shell in real Chromium against a real Warden serving dist/web (built by `npm test`'s `npm run build`):
// the monitor list of a signed-in user with filters in the URL, dark mode remembered, the headers of index.html and of
// a hashed asset, no CSP violation and no serious accessibility violation.
import { describe, expect, it } from 'vitest';
import { scaled } from '../time-scale.js';
import { seriousViolations, shellDashboard } from './dashboard-harness.js';

describe('the dashboard', () => {
  const d = shellDashboard();

  it('shows the monitors with their states and latency, filters through the URL, and remembers dark mode', {
    timeout: scaled(30_000),
  }, async () => {
    const { context, page, cspErrors } = await d.open('/app');
    try {
      await page.waitForURL(/\/app\/monitors$/);
      const table = page.getByRole('table', { name: 'Monitors' });
      const lobby = table.getByRole('row', { name: /Lobby/ });
      await expect.poll(() => lobby.textContent()).toContain('Up');
      expect(await lobby.textContent()).toContain('42 ms');
      expect(await lobby.textContent()).toContain('12 / 64');
      expect(await table.getByRole('row', { name: /Nightly backups/ }).textContent()).toContain('Down');
      expect(await table.getByRole('row', { name: /Website/ }).textContent()).toContain('Unknown');
      expect(await page.getByRole('status').filter({ hasText: 'monitors' }).textContent()).toBe('3 monitors');
      expect(await page.getByRole('button', { name: 'Account menu of Olive Owner' }).isVisible()).toBe(true);
      expect(
        await page
          .getByRole('navigation', { name: 'Dashboard' })
          .getByRole('link', { name: 'Monitors' })
          .getAttribute('aria-current'),
      ).toBe('page');
      await lobby.getByRole('img', { name: 'Latency of Lobby over the last 24 hours' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('searchbox', { name: 'Search' }).fill('backup');
      await page.waitForURL(/\/app\/monitors\?q=backup$/);
      await expect.poll(() => table.getByRole('row').count()).toBe(2);
      expect(await table.getByRole('row', { name: /Nightly backups/ }).isVisible()).toBe(true);
      // The filter lives in the URL: a reload keeps it.
      await page.reload();
      await expect.poll(() => page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('backup');
      await expect.poll(() => table.getByRole('row').count()).toBe(2);

      await page.goto(`${d.warden.url}/app/monitors?state=down`);
      await expect.poll(() => table.getByRole('row').count()).toBe(2);
      expect(await table.getByRole('row', { name: /Nightly backups/ }).isVisible()).toBe(true);

      const html = page.locator('html');
      expect(await html.getAttribute('data-mantine-color-scheme')).toBe('light');
      await page.getByRole('button', { name: 'Switch to dark mode' }).click();
      await expect.poll(() => html.getAttribute('data-mantine-color-scheme')).toBe('dark');
      await page.reload();
      await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
      expect(await html.getAttribute('data-mantine-color-scheme')).toBe('dark');
      expect(await page.evaluate(() => Object.keys(localStorage))).not.toContain(
        expect.stringMatching(/session|token/i),
      );

      expect(await seriousViolations(page)).toEqual([]);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('serves index.html uncached with a strict CSP, and hashed assets immutable and precompressed', async () => {
    const index = await fetch(`${d.warden.url}/app/monitors`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    const nonce = /<meta property="csp-nonce" nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
    expect(csp).toContain(`'nonce-${nonce}'`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const entry = /<script type="module" crossorigin src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const brotli = await fetch(`${d.warden.url}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding');
    expect((await brotli.text()).length).toBeGreaterThan(10_000);

    const missing = await fetch(`${d.warden.url}/app/assets/index-00000000.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });
});
