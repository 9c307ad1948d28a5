// Issue 17's page as its players see it, in Chromium, from a real Warden: a branded page with game servers reporting
// players, a website, an incident and maintenance, at desktop and phone width in light and dark (screenshots in
// test-results/), with its logo, accent and charts drawn, no serious axe violation, and no render-blocking request
// unless the page chose a custom stylesheet (then exactly that one).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import {
  ACCENT,
  DESKTOP,
  INCIDENT_TITLE,
  logoLoaded,
  MAINTENANCE_TITLE,
  openShowcase,
  PHONE,
  type Showcase,
  STYLED_SLUG,
  startShowcase,
} from '../page-showcase-scene.js';
import { countNear } from '../pixels.js';
import { saveScreenshot } from '../screenshots.js';

let showcase: Showcase;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [showcase, browser] = await Promise.all([startShowcase(), launchChromium()]);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await showcase?.close();
});

async function open(looks: 'light' | 'dark', slug?: string): Promise<Page> {
  const { context, page } = await openShowcase(browser, showcase, { looks, ...(slug ? { slug } : {}) });
  contexts.push(context);
  return page;
}

/** The resources Chromium held the first paint for (PerformanceResourceTiming.renderBlockingStatus), by path. */
function blockingResources(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (performance.getEntriesByType('resource') as (PerformanceResourceTiming & { renderBlockingStatus?: string })[])
      .filter((entry) => entry.renderBlockingStatus === 'blocking')
      .map((entry) => new URL(entry.name).pathname),
  );
}

describe('the Blockhaven Network page in Chromium', () => {
  for (const looks of ['light', 'dark'] as const) {
    it(`shows its logo, accent, charts, incident and maintenance in ${looks}, at desktop and phone width, without a serious axe violation`, async () => {
      const page = await open(looks);
      const logo = page.locator('[data-testid=brand-logo]');
      expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await logo.getAttribute('alt')).toBe('Blockhaven Network');
      // The accent colours the header's links: as set in light, lightened to reach AA on the dark background.
      const linkColour = await page
        .locator('.brand-links a')
        .first()
        .evaluate((a) => getComputedStyle(a).color);
      if (looks === 'light') expect(linkColour).toBe('rgb(71, 82, 196)');
      else
        expect(linkColour).toBe(
          await page
            .evaluate(() =>
              getComputedStyle(document.querySelector('.brand-links a') as Element)
                .getPropertyValue('--link')
                .trim(),
            )
            .then(rgbOf),
        );
      expect(await page.locator('.brand-links a').allTextContents()).toEqual(['Discord', 'Website']);
      expect(await page.getByTestId('brand-footer').textContent()).toContain('Not an official Minecraft product');
      // A players chart for each game server, a response-time chart for each component, with data in them.
      expect(await page.getByRole('img', { name: /^Players over 24 hours: average \d+/ }).count()).toBe(2);
      expect(await page.getByRole('img', { name: /^Response time over 24 hours: median \d+/ }).count()).toBe(3);
      expect(await page.getByText(INCIDENT_TITLE).first().isVisible()).toBe(true);
      expect(await page.getByText(MAINTENANCE_TITLE).first().isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      const desktop = await saveScreenshot(page, `status-page-showcase-desktop-${looks}.png`, {
        looks,
        fullPage: true,
      });
      if (looks === 'light')
        expect(countNear(desktop, ACCENT, 8), 'pixels of the accent (logo, links)').toBeGreaterThan(500);
      await page.setViewportSize(PHONE);
      await logoLoaded(page);
      expect(
        await page
          .getByRole('img', { name: /^Players over 24 hours: / })
          .first()
          .isVisible(),
      ).toBe(true);
      await saveScreenshot(page, `status-page-showcase-phone-${looks}.png`, { looks, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize(DESKTOP);
    });
  }

  it('asks for nothing render-blocking: the styles and script are in the page, the logo loads beside it', async () => {
    const page = await open('light');
    const early: string[] = [];
    page.on('request', (request) => early.push(`${request.resourceType()} ${new URL(request.url()).pathname}`));
    page.once('domcontentloaded', () => page.removeAllListeners('request'));
    await page.reload();
    await logoLoaded(page);
    expect(early.filter((r) => /^(stylesheet|script|font) /.test(r))).toEqual([]);
    expect(await blockingResources(page)).toEqual([]);
    // The API answers for this page: the logo is a resource Chromium timed, and did not block on it.
    const logo = await page.evaluate(
      () =>
        (
          performance.getEntriesByType('resource') as (PerformanceResourceTiming & { renderBlockingStatus?: string })[]
        ).find((e) => e.name.includes('/assets/logo'))?.renderBlockingStatus,
    );
    expect(logo).toBe('non-blocking');
  });

  it('with a custom stylesheet, blocks on exactly that one request, as docs/branding.md says', async () => {
    const page = await open('light', STYLED_SLUG);
    expect(await blockingResources(page)).toEqual([`/s/${STYLED_SLUG}/custom.css`]);
    expect(await page.locator('.site-head').evaluate((el) => getComputedStyle(el).borderBottom)).toBe(
      '4px solid rgb(71, 82, 196)',
    );
  });
});

/** A CSS colour (#rrggbb) as getComputedStyle reports it. */
function rgbOf(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
