import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import {
  activeIncidentSnapshot,
  hostileSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  SNAPSHOT_FIXTURES,
} from '../fakes/snapshots.js';
import { saveScreenshot } from '../screenshots.js';
import { scaled } from '../time-scale.js';
import { CONTRAST, type ContrastReport, DESKTOP, open, PHONE, render, scrollsSideways } from './page-harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the HTML status page in Chromium', () => {
  for (const [name, make] of Object.entries(SNAPSHOT_FIXTURES)) {
    it(`shows the ${name} page: banner, every component, landmarks, no errors`, async () => {
      const snapshot = make();
      const opened = await open(browser, render(snapshot));
      try {
        const { page } = opened;
        const banner = page.getByTestId('overall');
        await expect.poll(() => banner.isVisible()).toBe(true);
        expect(await banner.getAttribute('data-state')).toBe(snapshot.overall.state);
        expect(await banner.textContent()).toContain(snapshot.overall.label);
        const components = page.getByTestId('component');
        expect(await components.count()).toBe(snapshot.components.length);
        expect(await components.first().isVisible()).toBe(true);
        expect(await components.first().getAttribute('data-component-id')).toBe(snapshot.components[0]!.id);
        for (const landmark of ['banner', 'main', 'contentinfo'] as const)
          expect(await page.getByRole(landmark).count()).toBe(1);
        expect(await page.locator('h1').count()).toBe(1);
        // The page script ran (allowed by its CSP hash) and turned UTC times into local ones.
        expect(await page.locator('time[title]').count()).toBeGreaterThan(0);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    });
  }

  it('fits a 360 px phone without sideways scrolling, whatever the content', { timeout: scaled(60_000) }, async () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) {
      const opened = await open(browser, render(make()), { viewport: PHONE });
      try {
        expect(await scrollsSideways(opened.page)).toBe(false);
        // Phones show the last 30 days of each strip.
        const bars = opened.page.locator('.strip').first().locator('span');
        expect(
          await bars.evaluateAll((spans) => spans.filter((s) => getComputedStyle(s).display !== 'none').length),
        ).toBe(30);
      } finally {
        await opened.close();
      }
    }
  });

  it('keeps text contrast at WCAG AA in light and dark, and dark mode changes the background', {
    timeout: scaled(60_000),
  }, async () => {
    const reports: Record<string, ContrastReport> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [name, make] of Object.entries(SNAPSHOT_FIXTURES)) {
        const opened = await open(browser, render(make()), { colorScheme });
        try {
          await opened.page.locator('details').evaluateAll((all) => {
            for (const details of all) (details as HTMLDetailsElement).open = true;
          });
          const report = (await opened.page.evaluate(CONTRAST)) as ContrastReport;
          expect(report.body, `${name} ${colorScheme} body text`).toBeGreaterThanOrEqual(4.5);
          expect(report.checked).toBeGreaterThan(10);
          expect(report.failures, `${name} ${colorScheme}`).toEqual([]);
          reports[`${name}-${colorScheme}`] = report;
        } finally {
          await opened.close();
        }
      }
    }
    expect(reports['operational-dark']!.bodyBackground).not.toBe(reports['operational-light']!.bodyBackground);
    expect(reports['operational-dark']!.bodyBackground).toBe('rgb(13, 17, 23)');
  });

  it('switches to dark when the reader asks for it (emulateMedia)', async () => {
    const opened = await open(browser, render(operationalSnapshot()));
    try {
      const background = () => opened.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const light = await background();
      await opened.page.emulateMedia({ colorScheme: 'dark' });
      expect(await background()).not.toBe(light);
      const report = (await opened.page.evaluate(CONTRAST)) as ContrastReport;
      expect(report.body).toBeGreaterThanOrEqual(4.5);
    } finally {
      await opened.close();
    }
  });

  it('runs no script from user text', async () => {
    const opened = await open(browser, render(hostileSnapshot()), { viewport: PHONE });
    try {
      // Every resource loaded or failed by then: an injected <img onerror> or <script> would have run.
      await opened.page.waitForLoadState('load');
      expect(opened.dialogs).toEqual([]);
      expect(await opened.page.locator('img, main script, main svg[onload]').count()).toBe(0);
      expect(await opened.page.locator('.component-name').first().textContent()).toMatch(
        /^<img src=x onerror=alert\(1\)>"><svg/,
      );
      expect(await opened.page.locator('h1').textContent()).toBe('Bob\'s "Best" <Server> & Co');
      expect(await opened.page.title()).toContain('Bob\'s "Best" <Server> & Co');
      expect(opened.errors).toEqual([]);
      await saveScreenshot(opened.page, 'status-page-hostile-phone.png', { looks: 'light', fullPage: true });
    } finally {
      await opened.close();
    }
  });

  it('refreshes itself in place when the served page changes, keeping the scroll position', async () => {
    const opened = await open(browser, render(operationalSnapshot(), { refreshSeconds: 1 }));
    try {
      const { page } = opened;
      await page.evaluate(() => {
        (window as unknown as { loadedOnce: boolean }).loadedOnce = true;
        window.scrollTo(0, 400);
      });
      const changed = { ...partialOutageSnapshot(), generatedAt: operationalSnapshot().generatedAt + 60_000 };
      opened.setHtml(render(changed, { refreshSeconds: 1 }));
      await page.waitForSelector('[data-testid="overall"][data-state="degraded"]', { timeout: 5000 });
      expect(await page.getByTestId('overall').textContent()).toContain('Partial outage: 1 of 6 components down');
      expect(await page.locator('[data-component-id="survival"]').getAttribute('data-state')).toBe('down');
      await expect.poll(() => page.title()).toBe('Partial outage: 1 of 6 components down · Blockhaven Network status');
      // Same window (no reload), same place on the page, and the new times were localised too.
      expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
      expect(await page.evaluate(() => window.scrollY)).toBe(400);
      expect(await page.locator('main time[title]').count()).toBe(await page.locator('main time').count());
      expect(await page.locator('#announce').textContent()).toContain('Partial outage');
      expect(opened.requests()).toBeGreaterThan(1);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('reloads itself by <noscript> refresh when scripting is off', async () => {
    const opened = await open(browser, render(operationalSnapshot(), { refreshSeconds: 1 }), {
      context: { javaScriptEnabled: false },
    });
    try {
      opened.setHtml(render(partialOutageSnapshot(), { refreshSeconds: 1 }));
      await opened.page.waitForSelector('[data-testid="overall"][data-state="degraded"]', { timeout: 5000 });
    } finally {
      await opened.close();
    }
  });

  it('looks light, dark, and whole on a phone in its screenshots, as the reader asks', async () => {
    const html = render(activeIncidentSnapshot());
    for (const [file, viewport, colorScheme] of [
      ['status-page-light.png', DESKTOP, 'light'],
      ['status-page-dark.png', DESKTOP, 'dark'],
      ['status-page-phone.png', PHONE, 'light'],
    ] as const) {
      const opened = await open(browser, html, { viewport, colorScheme });
      try {
        // The page script has run once the times are local: the shot shows what the reader sees.
        await opened.page.locator('time[title]').first().waitFor();
        await saveScreenshot(opened.page, file, { looks: colorScheme, fullPage: true });
      } finally {
        await opened.close();
      }
    }
  });
});
