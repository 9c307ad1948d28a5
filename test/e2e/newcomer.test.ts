// The first hour, played as a newcomer would (issue 34): a fresh data directory, the server started as `npm start`
// starts it, then only the dashboard in Chromium — no log read, no command run. /app opens the setup screen, which has
// the setup code already (the browser is on the server's machine); the owner is created from what the screen asks; an
// HTTP monitor is up within 2 s of saving; a webhook channel is added without typing a secret (Warden makes one and
// shows it once); the target stops and the alert reaches the webhook, signed with that secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { scaled } from '../time-scale.js';
import { seriousViolations } from './dashboard-harness.js';

/** "Up within 2 s of saving", with the same margin for a loaded machine as the other timed end-to-end tests. */
const UP_WITHIN_MS = 2_000 + 1_000;

/** The newcomer's game website: answers 200 until it is stopped (then its port refuses connections). */
async function startSite(): Promise<{ url: string; stop(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Hi'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const label = (page: Page, name: string) =>
  page.getByLabel(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));

describe('a newcomer’s first hour, in the dashboard only', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, scaled(30_000));
  afterAll(async () => {
    await browser?.close();
  });

  it('sets up, watches a website, adds a webhook without a secret, and hears when the website stops', {
    timeout: scaled(120_000),
  }, async () => {
    // Everything fresh for each attempt: a retry (vitest.config.ts) starts again from a server nobody has set up.
    const dataDir = mkdtempSync(join(tmpdir(), 'warden-newcomer-'));
    const [site, receiver] = await Promise.all([startSite(), startReceiver({ status: 204 })]);
    let server: ServerProcess | undefined;
    try {
      // As `npm start` runs it: the bundle, `serve`, a fresh data directory, nothing else set.
      server = await startServer([], { WARDEN_DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      await firstHour(browser, server, site, receiver);
    } finally {
      await server?.stop();
      await Promise.all([site.stop(), receiver.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function firstHour(
  browser: Browser,
  server: ServerProcess,
  site: Awaited<ReturnType<typeof startSite>>,
  receiver: Receiver,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(scaled(15_000));
  try {
    // The address the server says it listens on, as the README says to open it.
    const base = server.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${base}/app`);
    await page.waitForURL(/\/app\/setup$/);
    await page.getByRole('heading', { name: 'Set up Warden' }).waitFor();
    // The code is there already: this browser runs on the server's machine.
    await page.getByText('Setup code filled in').waitFor();
    expect(await page.getByRole('textbox', { name: /^Setup code/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await label(page, 'Your name').fill('Nora Newcomer');
    await label(page, 'Email').fill('nora@example.com');
    await label(page, 'Password').fill('correct horse battery staple');
    await label(page, 'Organization name').fill('Blockhaven');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await page.waitForURL(/\/app\/monitors$/);

    // An HTTP monitor of the website, up within 2 s of saving.
    await page.getByRole('link', { name: 'New monitor' }).first().click();
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await label(page, 'Type').selectOption('http');
    await label(page, 'Name').fill('Website');
    await label(page, 'URL').fill(site.url);
    await label(page, 'Interval (s)').fill('10');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const saved = performance.now();
    await page.waitForURL(/\/app\/monitors\/mon_[0-9a-z]+$/);
    await page.getByText('Up', { exact: true }).first().waitFor({ timeout: UP_WITHIN_MS });
    expect(performance.now() - saved).toBeLessThan(UP_WITHIN_MS);

    // A webhook channel, the secret left to Warden, shown once.
    await page.goto(`${base}/app/notifications`);
    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New notification channel' });
    await dialog.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Webhook (Standard Webhooks)' }).click();
    await dialog.getByLabel(/^Name/).fill('Discord bridge');
    await dialog.getByLabel(/^URL/).fill(`${receiver.url}/hook`);
    expect(await dialog.getByRole('radio', { name: 'All events' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create the channel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const shown = page.getByRole('status').filter({ hasText: 'it is shown only once' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'I have saved it' }).click();

    // The website stops: the alert reaches the webhook, signed with the secret the screen showed.
    await site.stop();
    await expect
      .poll(() => receiver.requests.find((r) => (r.json as { type?: string } | undefined)?.type === 'monitor.down'), {
        timeout: 60_000,
        interval: 250,
      })
      .toBeDefined();
    const alert = receiver.requests.find((r) => (r.json as { type?: string }).type === 'monitor.down');
    expect(() => new Webhook(secret).verify(alert?.raw ?? '', alert?.headers as never)).not.toThrow();
    expect(alert?.raw).toContain('Website');
    // And the monitor's screen says so, live.
    await page.goto(`${base}/app/monitors`);
    await page
      .getByRole('table', { name: 'Monitors' })
      .getByRole('row', { name: /Website/ })
      // Exactly the state's word: the sparkline's titles say "down" too, once a second check failed.
      .getByText('Down', { exact: true })
      .waitFor();
  } finally {
    await context.close();
  }
}
