// The status page's Subscribe form in real Chromium, against a real Warden (node:http, port 0) whose system SMTP server
// (WARDEN_SMTP_URL) is a real one: type an address, submit without script, follow the mailed link.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import { type FakeSmtpServer, startSmtpFake } from '../fakes/smtp-server.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const YAML = `
organization: { key: acme, name: Acme }
pages:
  - { slug: main, title: Acme status, subscriptions: true }
`;

describe('the Subscribe form', () => {
  let browser: Browser;
  let smtp: FakeSmtpServer;
  let warden: SeededWarden;
  beforeAll(async () => {
    smtp = await startSmtpFake();
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    warden = await startSeededWarden(sqlite, YAML, {
      WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`,
      WARDEN_SMTP_FROM: 'status@acme.test',
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
    await smtp?.close();
  });

  it('subscribes by email without script, and the mailed link confirms', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'en-GB' });
    try {
      const page = await context.newPage();
      await page.goto(`${warden.url}/s/main`);
      await page.getByRole('link', { name: 'Subscribe' }).click();
      const region = page.getByRole('region', { name: 'Get updates' });
      await region.getByLabel('Email address').fill('reader@example.test');
      await region.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your inbox');
      await expect.poll(() => smtp.messages.length, { timeout: 5000 }).toBe(1);
      const mail = await smtp.messages[0]!.parse();
      const link = /http:\/\/\S+\/subscribe\/confirm\?token=\S+/.exec(mail.text ?? '')?.[0];
      expect(link).toBeDefined();
      await page.goto(link!.replace('localhost', '127.0.0.1'));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Subscription confirmed');
      expect(await page.getByRole('main').textContent()).toContain('reader@example.test');
    } finally {
      await context.close();
    }
  });

  it("speaks the browser's language, and the picker's pick stays on the page's links, its form and its live refresh", async () => {
    // Chromium sends Accept-Language from the context's locale.
    const context = await browser.newContext({ locale: 'de-DE' });
    try {
      const page = await context.newPage();
      await page.goto(`${warden.url}/s/main`);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      await page.getByRole('region', { name: 'Updates erhalten' }).waitFor();
      await page.getByTestId('language-picker').locator('summary').click();
      await page.getByRole('link', { name: 'Français' }).click();
      await page.waitForURL(/\/s\/main\?lang=fr$/);
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
      expect(await page.getByTestId('overall').textContent()).toContain('Tous les systèmes sont opérationnels');
      expect(await page.getByRole('link', { name: 'Markdown' }).first().getAttribute('href')).toBe(
        '/s/main/status.md?lang=fr',
      );
      // The page refreshes itself from its own address (here when the tab comes back into view), pick included.
      const refreshed = page.waitForRequest(
        (request) => request.url().endsWith('/s/main?lang=fr') && request.resourceType() === 'fetch',
      );
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await refreshed;
      const region = page.getByRole('region', { name: 'Recevoir les mises à jour' });
      await region.getByLabel('Adresse e-mail').fill('lecteur@example.test');
      await region.getByRole('button', { name: 'S’abonner', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Vérifiez votre boîte mail');
      expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    } finally {
      await context.close();
    }
  });
});
