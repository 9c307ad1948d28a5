// The pictures of who is online in README.md (`npm run screenshots players`): the creative server's list, opened by
// keyboard, on the page of test/fakes/players-scene.ts, light and dark at desktop width and light on a phone.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { renderHtmlPage } from '../src/render/html-page.js';
import { serveHtml } from './browser.js';
import { IMAGES } from './doc-screenshot-parts.js';
import { OPTIONS } from './e2e/page-harness.js';
import { playersSnapshot } from './fakes/players-scene.js';
import { saveThemedShot } from './page-screenshots.js';

const SHOTS = [
  { file: 'players-list-light.png', looks: 'light', viewport: { width: 1000, height: 900 } },
  { file: 'players-list-dark.png', looks: 'dark', viewport: { width: 1000, height: 900 } },
  { file: 'players-list-phone.png', looks: 'light', viewport: { width: 360, height: 740 } },
] as const;

export async function playersScreenshots(browser: Browser): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const server = await serveHtml(renderHtmlPage(playersSnapshot(), OPTIONS).body);
  try {
    for (const shot of SHOTS) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        colorScheme: shot.looks,
        deviceScaleFactor: 2,
        locale: 'en-GB',
        timezoneId: 'UTC',
      });
      try {
        const page = await context.newPage();
        await page.goto(server.url);
        const toggle = page.locator('[data-component-id="creative"] [data-testid="player-names"] summary');
        await toggle.focus();
        await page.keyboard.press('Enter');
        await page.locator('[data-component-id="creative"] .who-list li').first().waitFor();
        const bytes = await page.locator('[data-component-id="creative"]').screenshot();
        saveThemedShot(bytes, shot);
      } finally {
        await context.close();
      }
    }
  } finally {
    await server.close();
  }
}
