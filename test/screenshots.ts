// Screenshots people look at, saved in test-results/, each checked for what a person would notice in it first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  DARK_LUMINANCE_MAX,
  distinctColours,
  LIGHT_LUMINANCE_MIN,
  meanLuminance,
  type Pixels,
  type Region,
  readPng,
} from './pixels.js';

export const SCREENSHOTS = join(process.cwd(), 'test-results');

export type Looks = 'light' | 'dark';

/**
 * Saves test-results/<file>, of the viewport or with `fullPage` the whole page, and checks it: no wider than the
 * screen (nothing to scroll sideways to), the screen's height at least, not blank, and light or dark as it `looks`
 * (left out for a page that is not ours, such as the host of an embed). Returns its pixels, for checks of a part of
 * it (regionOf).
 */
export async function saveScreenshot(
  page: Page,
  file: string,
  options: { looks?: Looks; fullPage?: boolean },
): Promise<Pixels> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('a page without a fixed viewport has no expected screenshot size');
  const scale = await page.evaluate(() => window.devicePixelRatio);
  const pageWidth = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth);
  expect(pageWidth, `${file}: the page's width (CSS px) against the screen's`).toBeLessThanOrEqual(viewport.width);
  const png = readPng(await page.screenshot({ path: join(SCREENSHOTS, file), fullPage: options.fullPage ?? false }));
  expect(png.width, `${file}: its width (px)`).toBe(viewport.width * scale);
  if (options.fullPage) expect(png.height, `${file}: its height (px)`).toBeGreaterThanOrEqual(viewport.height * scale);
  else expect(png.height, `${file}: its height (px)`).toBe(viewport.height * scale);
  expect(distinctColours(png), `${file}: distinct colours (a blank screenshot has one or two)`).toBeGreaterThan(20);
  if (options.looks) expectLooks(png, options.looks, file);
  return png;
}

/** Checks that an image, or a region of it, reads as light or as dark, by its mean luminance. */
export function expectLooks(png: Pixels, looks: Looks, what: string, region?: Region): void {
  const luminance = meanLuminance(png, region);
  if (looks === 'dark') expect(luminance, `${what}: mean luminance of a dark image`).toBeLessThan(DARK_LUMINANCE_MAX);
  else expect(luminance, `${what}: mean luminance of a light image`).toBeGreaterThan(LIGHT_LUMINANCE_MIN);
}

/** Where an element is drawn in a screenshot of the viewport, in the screenshot's pixels. */
export async function regionOf(element: Locator): Promise<Region> {
  const box = await element.boundingBox();
  if (!box) throw new Error(`${element} is not drawn`);
  const scale = await element.page().evaluate(() => window.devicePixelRatio);
  return { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale };
}
