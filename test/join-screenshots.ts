// The join buttons' pictures in docs/embed.md's neighbour, docs/join.md (`npm run screenshots join`): the components of
// test/fakes/join-snapshot.ts on the HTML page in Chromium, light and dark at desktop width and light on a phone,
// the light one just after its address was copied ("Copied"); each checked to be neither blank nor the wrong theme.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { renderHtmlPage } from '../src/render/html-page.js';
import { serveHtml } from './browser.js';
import { IMAGES } from './doc-screenshot-parts.js';
import { joinSnapshot } from './fakes/join-snapshot.js';
import { saveThemedShot } from './page-screenshots.js';

const SHOTS = [
  { file: 'join-buttons-light.png', looks: 'light', viewport: { width: 900, height: 900 }, copy: true },
  { file: 'join-buttons-dark.png', looks: 'dark', viewport: { width: 900, height: 900 }, copy: false },
  { file: 'join-buttons-phone.png', looks: 'light', viewport: { width: 360, height: 740 }, copy: false },
] as const;

export async function joinScreenshots(browser: Browser): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const html = renderHtmlPage(joinSnapshot(), {
    jsonPath: '/status.json',
    markdownPath: '/status.md',
    refreshSeconds: 0,
  });
  const server = await serveHtml(html.body);
  try {
    for (const shot of SHOTS) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        colorScheme: shot.looks,
        locale: 'en-GB',
        timezoneId: 'UTC',
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      try {
        const page = await context.newPage();
        await page.goto(server.url);
        if (shot.copy) {
          await page.locator('[data-component-id="mc"] [data-testid="join-copy"]').click();
          await page.getByText('Copied').waitFor();
        }
        // No hover look on whatever ends up under the pointer.
        await page.mouse.move(0, 0);
        const bytes = await page.locator('section[aria-labelledby="components-title"]').screenshot();
        saveThemedShot(bytes, shot);
      } finally {
        await context.close();
      }
    }
  } finally {
    await server.close();
  }
}
