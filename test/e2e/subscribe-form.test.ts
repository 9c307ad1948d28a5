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
    warden = await startSeededWarden(sqlite, YAML, { WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`, WARDEN_SMTP_FROM: 'status@acme.test' });
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
});
