// A branded status page in Chromium, served by a real Warden: its custom stylesheet, accent, uploaded logo and header
// links load under the page's Content-Security-Policy, and the browser reports no violation; the dashboard edits them.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../accounts.js';
import { launchChromium } from '../browser.js';
import { solidPng } from '../fakes/images.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const ACCENT = '#5b2a86';
const CONFIG = `
organization: { name: Branding test }
monitors:
  - { key: game, name: Survival, type: heartbeat, config: { graceSec: 600 } }
pages:
  - slug: brand
    title: Blockhaven Network
    branding:
      accentColor: "${ACCENT}"
      links:
        - { label: Discord, url: "https://discord.gg/blockhaven" }
        - { label: Store, url: "https://store.example.com/" }
      footerText: "© Blockhaven. Not affiliated with Mojang."
      hidePoweredBy: true
    customCss: |
      .site-head { border-bottom: 6px solid rgb(18, 184, 134); }
      .brand-footer { font-style: italic; }
    components: [{ name: Survival, monitor: game }]
`;

describe('a branded status page in Chromium', () => {
  let warden: SeededWarden;
  let browser: Browser;

  beforeAll(async () => {
    [warden, browser] = await Promise.all([
      startSeededWarden(dialects[0] as (typeof dialects)[number], CONFIG),
      launchChromium(),
    ]);
    const uploaded = await fetch(`${warden.url}/api/v1/pages/brand/assets/logo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'image/png' },
      body: Buffer.from(solidPng('#12b886', 240, 60)),
    });
    expect(uploaded.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  it('loads its stylesheet, accent and logo under its policy, with no violation in the console', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, colorScheme: 'light' });
    const page = await context.newPage();
    const errors: string[] = [];
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(d: string): void }).reportViolation(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    // The page cache picks the upload up within moments: reload until the logo shows.
    for (let i = 0; i < 50; i++) {
      await page.goto(`${warden.url}/s/brand`);
      if ((await page.locator('[data-testid=brand-logo]').count()) > 0) break;
      await page.waitForTimeout(100);
    }
    const logo = page.locator('[data-testid=brand-logo]');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    expect(await logo.getAttribute('alt')).toBe('Blockhaven Network');
    // The custom stylesheet applied (after the built-in one), the accent coloured the links.
    expect(await page.locator('.site-head').evaluate((el) => getComputedStyle(el).borderBottom)).toBe(
      '6px solid rgb(18, 184, 134)',
    );
    expect(await page.locator('[data-testid=brand-footer]').evaluate((el) => getComputedStyle(el).fontStyle)).toBe(
      'italic',
    );
    expect(
      await page
        .locator('.brand-links a')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ).toBe('rgb(91, 42, 134)');
    expect(await page.locator('.brand-links a').allTextContents()).toEqual(['Discord', 'Store']);
    expect(await page.locator('.site-foot').textContent()).not.toContain('Powered by Warden');
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is edited in the dashboard: the contrast refusal under the accent, a logo upload, the public page following', async () => {
    const created = await fetch(`${warden.url}/api/v1/pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${warden.writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'studio', title: 'Studio status' }),
    });
    expect(created.status).toBe(201);
    const { testContext } = await import('../seed.js');
    const editor = await signedInUser(
      { ...testContext(warden.opened.store, { now: () => Date.now() }), organizationId: warden.organizationId },
      [{ organizationId: warden.organizationId, role: 'editor' }],
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme: 'light' });
    await context.addCookies([{ name: 'warden_session', value: editor.token, url: warden.url }]);
    const page = await context.newPage();
    page.setDefaultTimeout(scaled(10_000));
    await page.goto(`${warden.url}/app/pages/studio`);
    const form = page.getByRole('form', { name: 'Branding' });
    const accent = form.getByLabel('Accent colour');
    await accent.fill('#ffcc00');
    await form.getByText('below AA (4.5:1)').waitFor();
    await form.getByRole('button', { name: 'Save branding' }).click();
    // The server's refusal, under the field it names.
    await form
      .getByText(/contrast 1\.\d+:1 against the page's light background \(#f6f8fa\) is below WCAG AA/)
      .waitFor();

    await accent.fill(ACCENT);
    await form.getByRole('button', { name: 'Add a link' }).click();
    await form.getByLabel('Link 1 label').fill('Discord');
    await form.getByLabel('Link 1 URL').fill('https://discord.gg/studio');
    await form.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('group', { name: 'Logo' }).getByRole('button', { name: 'Upload logo' }).click();
    await (await chooser).setFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from(solidPng('#12b886', 120, 30)),
    });
    await page.getByRole('group', { name: 'Logo' }).getByRole('img', { name: "The page's logo" }).waitFor();

    await expect
      .poll(async () => {
        const html = await (await fetch(`${warden.url}/s/studio`)).text();
        return [
          html.includes('class="brand-logo"'),
          html.includes(`--link:${ACCENT}`),
          html.includes('https://discord.gg/studio'),
        ];
      })
      .toEqual([true, true, true]);
    await context.close();
  });
});
