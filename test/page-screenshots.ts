// The status page's pictures in README.md (`npm run screenshots page`): the scene of test/e2e/page-showcase.test.ts
// (test/page-showcase-scene.ts) captured whole in Chromium, at desktop width light and dark and at phone width light,
// each checked for what a reader notices first (not blank, light or dark, the logo loaded).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { IMAGES } from './doc-screenshot-parts.js';
import { DESKTOP, openShowcase, PHONE, startShowcase } from './page-showcase-scene.js';
import { DARK_LUMINANCE_MAX, distinctColours, LIGHT_LUMINANCE_MIN, meanLuminance, readPng } from './pixels.js';

const SHOTS = [
  { file: 'status-page-desktop-light.png', looks: 'light', viewport: DESKTOP, deviceScaleFactor: 1 },
  { file: 'status-page-desktop-dark.png', looks: 'dark', viewport: DESKTOP, deviceScaleFactor: 1 },
  { file: 'status-page-phone.png', looks: 'light', viewport: PHONE, deviceScaleFactor: 1 },
] as const;

export async function pageScreenshots(browser: Browser): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const showcase = await startShowcase();
  try {
    for (const shot of SHOTS) {
      const { context, page } = await openShowcase(browser, showcase, shot);
      try {
        const bytes = await page.screenshot({ fullPage: true });
        saveThemedShot(bytes, shot);
      } finally {
        await context.close();
      }
    }
  } finally {
    await showcase.close();
  }
}

/** Writes a screenshot to docs/images/<file> once it is not blank and looks light or dark as the shot says. */
export function saveThemedShot(bytes: Buffer, shot: { file: string; looks: 'light' | 'dark' }): void {
  const png = readPng(bytes);
  if (distinctColours(png) < 20) throw new Error(`${shot.file} looks blank`);
  const luminance = meanLuminance(png);
  if (shot.looks === 'dark' ? luminance >= DARK_LUMINANCE_MAX : luminance <= LIGHT_LUMINANCE_MIN)
    throw new Error(`${shot.file} does not look ${shot.looks} (mean luminance ${luminance.toFixed(2)})`);
  writeFileSync(join(IMAGES, shot.file), bytes);
  console.log(`docs/images/${shot.file}: ${png.width}×${png.height}`);
}
