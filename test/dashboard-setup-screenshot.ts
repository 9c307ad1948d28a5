// The first-run picture in docs/dashboard.md (`npm run screenshots dashboard`, or `setup` alone): a fresh Warden — an
// empty database, so the built-in demo, and no account yet — where /app leads to the setup screen.
import type { Browser } from 'playwright-core';
import { readSettings } from '../src/config/settings.js';
import { createLogger } from '../src/logger.js';
import { startWarden } from '../src/main.js';
import { shoot } from './dashboard-screenshots.js';
import { dialects } from './store-dialects.js';

export async function setupScreenshot(browser: Browser): Promise<void> {
  const sqlite = dialects.find((d) => d.name === 'sqlite');
  if (!sqlite) throw new Error('no SQLite dialect');
  const opened = await sqlite.open();
  const warden = await startWarden({
    settings: readSettings({ ...opened.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
    logger: createLogger('silent'),
  });
  const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${warden.url.replace('localhost', '127.0.0.1')}/app`);
    await page.waitForURL(/\/app\/setup$/);
    await page.getByRole('heading', { name: 'Set up Warden' }).waitFor();
    await page.waitForLoadState('networkidle');
    await shoot(page, 'setup', 'light');
  } finally {
    await context.close();
    await warden.close();
    await opened.cleanup();
  }
}
