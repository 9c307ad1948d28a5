// A community subscribes its channel from the status page, in real Chromium against a real Warden (node:http, port 0)
// and a fake Discord that answers GET /webhooks/{id}/{token} as Discord does: by keyboard with script (the answer
// shown beside the field), without script (an answer page), Slack's wait for approval, and the block's layout in
// light, dark and at phone width. Each browser context is its own client (X-Forwarded-For behind a trusted proxy),
// so the per-client limit on subscribe requests holds for each.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeOn } from '../axe.js';
import { launchChromium } from '../browser.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-webhook.js';
import { type FakeSmtpServer, startSmtpFake } from '../fakes/smtp-server.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';
import { DESKTOP, PHONE, scrollsSideways } from './page-harness.js';

const YAML = `
organization: { key: acme, name: Acme }
pages:
  - { slug: main, title: Acme status, subscriptions: true }
`;
const SLACK_URL = 'https://hooks.slack.com/services/T0000/B0000/abcdefghijklmnop';
const SUBSCRIBED = 'Subscribed: channel 81384788765712385 in server 81384788765712384, through the webhook “Warden”.';

// The server's first answers on this shared machine can take seconds (modules loaded on first use).
const SLOW = { timeout: scaled(15_000) };

describe('subscribing a Discord or Slack channel from the status page', { timeout: 60_000 }, () => {
  let browser: Browser;
  let smtp: FakeSmtpServer;
  let discord: FakeDiscord;
  let warden: SeededWarden;
  let clients = 0;
  beforeAll(async () => {
    smtp = await startSmtpFake();
    discord = await startFakeDiscord();
    const sqlite = dialects.find((d) => d.name === 'sqlite')!;
    warden = await startSeededWarden(sqlite, YAML, {
      WARDEN_SMTP_URL: `smtp://127.0.0.1:${smtp.port}?secure=none`,
      WARDEN_SMTP_FROM: 'status@acme.test',
      // The fake Discord listens on loopback: the organization's target guard lets private targets through.
      WARDEN_PROBE_PRIVATE_TARGETS: 'allow',
      WARDEN_TRUST_PROXY: '1',
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
    await discord?.close();
    await smtp?.close();
  });

  /** A fresh reader (its own client address) on the page. */
  async function reader(
    options: { script?: boolean; viewport?: typeof DESKTOP; colorScheme?: 'light' | 'dark' } = {},
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({
      javaScriptEnabled: options.script ?? true,
      locale: 'en-GB',
      viewport: options.viewport ?? DESKTOP,
      colorScheme: options.colorScheme ?? 'light',
      extraHTTPHeaders: { 'x-forwarded-for': `192.0.2.${++clients}` },
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // A refusal is an HTTP 400 the form shows; Chromium logs each one, which is no fault of the page.
      if (message.type() === 'error' && !message.text().includes('status of 400')) errors.push(message.text());
    });
    await page.goto(`${warden.url}/s/main`);
    return { context, page, errors };
  }

  const region = (page: Page) => page.getByRole('region', { name: 'Get updates' });

  it('subscribes a Discord channel by keyboard, showing refusals and then the channel beside the field', async () => {
    const { context, page, errors } = await reader();
    try {
      const summary = region(page).locator('summary', { hasText: 'Discord channel' });
      await summary.focus();
      await page.keyboard.press('Enter');
      const field = region(page).getByLabel('Discord webhook URL');
      await page.keyboard.press('Tab');
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      // The hint says where the URL is, and is read with the field.
      expect(await field.getAttribute('aria-describedby')).toBe('subscribe-discord-hint subscribe-discord-answer');
      expect(await page.locator('#subscribe-discord-hint').textContent()).toContain(
        'Server Settings → Integrations → Webhooks',
      );
      const answer = page.getByTestId('subscribe-discord-answer');

      // Not a Discord webhook: refused beside the field, which is marked and focused again.
      await page.keyboard.type('https://example.com/not/a/webhook');
      await page.keyboard.press('Enter');
      const alert = answer.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), SLOW)
        .toContain('Could not subscribe: expected a Discord webhook URL');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);

      // Discord refuses the token: its words.
      await field.fill(discord.webhookUrl.replace(/[^/]+$/, 'not-the-token'));
      await page.keyboard.press('Enter');
      await expect.poll(() => alert.textContent(), SLOW).toContain('Invalid Webhook Token');

      await field.fill(discord.webhookUrl);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      const status = answer.getByRole('status');
      await expect.poll(() => status.textContent(), SLOW).toContain(SUBSCRIBED);
      const open = status.getByRole('link', { name: 'Open the channel in Discord' });
      expect(await open.getAttribute('href')).toBe('https://discord.com/channels/81384788765712384/81384788765712385');
      expect(await field.getAttribute('aria-invalid')).toBeNull();
      expect(await field.inputValue()).toBe('');
      // Answered in place: the page did not leave, and Discord was asked about the webhook.
      expect(new URL(page.url()).pathname).toBe('/s/main');
      expect(discord.requests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says a Slack channel waits for the page owner's approval", async () => {
    const { context, page, errors } = await reader();
    try {
      await region(page).locator('summary', { hasText: 'Slack channel' }).click();
      await region(page).getByLabel('Slack webhook URL').fill(SLACK_URL);
      await region(page).getByRole('button', { name: 'Subscribe the channel' }).last().click();
      const status = page.getByTestId('subscribe-slack-answer').getByRole('status');
      await expect
        .poll(() => status.textContent(), SLOW)
        .toBe('Waiting for the page owner’s approval: nothing is sent to the channel until then.');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works without script: each choice posts and is answered with a page', async () => {
    const { context, page } = await reader({ script: false });
    try {
      await region(page).locator('summary', { hasText: 'Discord channel' }).click();
      await region(page).getByLabel('Discord webhook URL').fill(discord.webhookUrl);
      await region(page).getByRole('button', { name: 'Subscribe the channel' }).first().click();
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), SLOW)
        .toBe('Discord channel subscribed');
      expect(await page.getByRole('main').textContent()).toContain(SUBSCRIBED);
      expect(await page.getByRole('link', { name: 'Open the channel in Discord' }).getAttribute('href')).toBe(
        'https://discord.com/channels/81384788765712384/81384788765712385',
      );

      await page.goto(`${warden.url}/s/main`);
      await region(page).locator('summary', { hasText: 'Slack channel' }).click();
      await region(page).getByLabel('Slack webhook URL').fill(`${SLACK_URL}x`);
      await region(page).getByRole('button', { name: 'Subscribe the channel' }).last().click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SLOW).toBe('Waiting for approval');
    } finally {
      await context.close();
    }
  });

  for (const [name, viewport, colorScheme] of [
    ['light, desktop', DESKTOP, 'light'],
    ['dark, desktop', DESKTOP, 'dark'],
    ['light, phone', PHONE, 'light'],
    ['dark, phone', PHONE, 'dark'],
  ] as const)
    it(`lays the open choices and a refusal out without sideways scrolling or serious violations (${name})`, async () => {
      const { context, page, errors } = await reader({ viewport, colorScheme });
      try {
        for (const choice of ['Discord channel', 'Slack channel', 'Or get a webhook'])
          await region(page).locator('summary', { hasText: choice }).click();
        const field = region(page).getByLabel('Discord webhook URL');
        await field.fill('https://example.com/not/a/webhook');
        await field.press('Enter');
        await page.getByTestId('subscribe-discord-answer').getByRole('alert').waitFor(SLOW);
        expect(await scrollsSideways(page)).toBe(false);
        // The field, its hint and the answer fit the card.
        const card = await region(page).locator('.card').boundingBox();
        for (const part of [
          field,
          page.locator('#subscribe-discord-hint'),
          page.getByTestId('subscribe-discord-answer'),
        ]) {
          const box = await part.boundingBox();
          expect(box!.x).toBeGreaterThanOrEqual(card!.x);
          expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width + 0.5);
        }
        const { violations } = await axeOn(page).include('#subscribe').analyze();
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
          [],
        );
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
});
