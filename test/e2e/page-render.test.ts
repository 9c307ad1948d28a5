// The rendered status page in real Chromium: visible states, landmarks, phone layout, dark mode contrast, no XSS, self-refresh.
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageState, Snapshot } from '../../src/domain/snapshot.js';
import { type ListedPage, renderHomePage } from '../../src/render/home-page.js';
import { type HtmlPageOptions, renderHtmlPage } from '../../src/render/html-page.js';
import { renderLoginPage } from '../../src/render/login-page.js';
import { renderNotFoundPage } from '../../src/render/not-found-page.js';
import { launchChromium, serveHtml } from '../browser.js';
import {
  activeIncidentSnapshot,
  hostileSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  SNAPSHOT_FIXTURES,
} from '../fakes/snapshots.js';
import { saveScreenshot } from '../screenshots.js';

const OPTIONS: HtmlPageOptions = { jsonPath: '/api/status.json', markdownPath: '/status.md', feedPath: '/feed.rss', refreshSeconds: 60 };
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  /** Console errors and page errors; a CSP refusal of our own script or style would show here. */
  errors: string[];
  /** Messages of alert/confirm/prompt dialogs that opened. */
  dialogs: string[];
  close(): Promise<void>;
}

/** Serves the HTML and opens it in a fresh context (UTC, English) with the given viewport and colour scheme. */
async function open(
  html: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark'; context?: BrowserContextOptions } = {},
): Promise<Opened & { setHtml(html: string): void; requests(): number }> {
  const server = await serveHtml(html);
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-GB',
    timezoneId: 'UTC',
    ...options.context,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(server.url);
  return {
    page,
    errors,
    dialogs,
    setHtml: server.setHtml,
    requests: server.requests,
    close: async () => {
      await context.close();
      await server.close();
    },
  };
}

const render = (snapshot: Snapshot, options: Partial<HtmlPageOptions> = {}) => renderHtmlPage(snapshot, { ...OPTIONS, ...options }).body;

/** Whether the document is wider than the viewport, i.e. the reader would have to scroll sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/*
 * Contrast is computed in the page: WCAG relative luminance of each visible text's colour against the first opaque
 * background behind it. Written as a string so the test runner's transform cannot alter the code that is sent.
 */
const CONTRAST = `(() => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const color = rgb(getComputedStyle(node).backgroundColor);
      if (color.length === 3 || color[3] === 1) return color;
    }
    return [255, 255, 255];
  };
  const body = ratio(rgb(getComputedStyle(document.body).color), background(document.body));
  const failures = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!text || el.closest('.sr-only, .skip') || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    checked++;
    const value = ratio(rgb(getComputedStyle(el).color), background(el));
    if (value < 4.5) failures.push(el.tagName + '.' + el.className + ' "' + el.textContent.trim().slice(0, 30) + '" ' + value.toFixed(2));
  }
  return { body, bodyBackground: getComputedStyle(document.body).backgroundColor, checked, failures };
})()`;

interface ContrastReport {
  body: number;
  bodyBackground: string;
  checked: number;
  failures: string[];
}

describe('the HTML status page in Chromium', () => {
  for (const [name, make] of Object.entries(SNAPSHOT_FIXTURES)) {
    it(`shows the ${name} page: banner, every component, landmarks, no errors`, async () => {
      const snapshot = make();
      const opened = await open(render(snapshot));
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
        for (const landmark of ['banner', 'main', 'contentinfo'] as const) expect(await page.getByRole(landmark).count()).toBe(1);
        expect(await page.locator('h1').count()).toBe(1);
        // The page script ran (allowed by its CSP hash) and turned UTC times into local ones.
        expect(await page.locator('time[title]').count()).toBeGreaterThan(0);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    });
  }

  it('fits a 360 px phone without sideways scrolling, whatever the content', async () => {
    for (const make of Object.values(SNAPSHOT_FIXTURES)) {
      const opened = await open(render(make()), { viewport: PHONE });
      try {
        expect(await scrollsSideways(opened.page)).toBe(false);
        // Phones show the last 30 days of each strip.
        const bars = opened.page.locator('.strip').first().locator('span');
        expect(await bars.evaluateAll((spans) => spans.filter((s) => getComputedStyle(s).display !== 'none').length)).toBe(30);
      } finally {
        await opened.close();
      }
    }
  }, 60_000);

  it('keeps text contrast at WCAG AA in light and dark, and dark mode changes the background', async () => {
    const reports: Record<string, ContrastReport> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [name, make] of Object.entries(SNAPSHOT_FIXTURES)) {
        const opened = await open(render(make()), { colorScheme });
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
  }, 60_000);

  it('switches to dark when the reader asks for it (emulateMedia)', async () => {
    const opened = await open(render(operationalSnapshot()));
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
    const opened = await open(render(hostileSnapshot()), { viewport: PHONE });
    try {
      // Every resource loaded or failed by then: an injected <img onerror> or <script> would have run.
      await opened.page.waitForLoadState('load');
      expect(opened.dialogs).toEqual([]);
      expect(await opened.page.locator('img, main script, main svg[onload]').count()).toBe(0);
      expect(await opened.page.locator('.component-name').first().textContent()).toMatch(/^<img src=x onerror=alert\(1\)>"><svg/);
      expect(await opened.page.locator('h1').textContent()).toBe('Bob\'s "Best" <Server> & Co');
      expect(await opened.page.title()).toContain('Bob\'s "Best" <Server> & Co');
      expect(opened.errors).toEqual([]);
      await saveScreenshot(opened.page, 'status-page-hostile-phone.png', { looks: 'light', fullPage: true });
    } finally {
      await opened.close();
    }
  });

  it('refreshes itself in place when the served page changes, keeping the scroll position', async () => {
    const opened = await open(render(operationalSnapshot(), { refreshSeconds: 1 }));
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
    const opened = await open(render(operationalSnapshot(), { refreshSeconds: 1 }), { context: { javaScriptEnabled: false } });
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
      const opened = await open(html, { viewport, colorScheme });
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

describe('the login and not-found pages in Chromium', () => {
  it('focuses a labelled password field, fits a phone and looks dark when asked', async () => {
    const html = renderLoginPage({ action: '/blockhaven/unlock', error: 'Wrong password.' }).body;
    const opened = await open(html, { viewport: PHONE, colorScheme: 'dark' });
    try {
      const field = opened.page.getByLabel('Password');
      expect(await field.getAttribute('type')).toBe('password');
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await opened.page.getByRole('alert').textContent()).toBe('Wrong password.');
      expect(await scrollsSideways(opened.page)).toBe(false);
      expect(((await opened.page.evaluate(CONTRAST)) as ContrastReport).failures).toEqual([]);
      await saveScreenshot(opened.page, 'login-page-dark-phone.png', { looks: 'dark', fullPage: true });
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('shows the not-found page kindly', async () => {
    const opened = await open(renderNotFoundPage('blockhavn').body, { viewport: PHONE });
    try {
      expect(await opened.page.getByRole('heading', { level: 1 }).textContent()).toBe('No status page called “blockhavn” here');
      expect(await scrollsSideways(opened.page)).toBe(false);
      expect(((await opened.page.evaluate(CONTRAST)) as ContrastReport).failures).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});

describe("Warden's landing page in Chromium", () => {
  const overall = (state: PageState, label: string) => ({ state, label });
  const pages: ListedPage[] = [
    { slug: 'creative', title: 'Creative', description: null, overall: overall('down', 'Major outage') },
    { slug: 'events', title: 'Events', description: 'Stages and tournaments', overall: overall('maintenance', 'Scheduled maintenance in progress') },
    { slug: 'modded', title: 'Modded', description: null, overall: overall('unknown', 'Status unknown') },
    { slug: 'skyblock', title: 'Skyblock', description: null, overall: overall('degraded', 'Partial outage: 1 of 4 components down') },
    { slug: 'survival', title: 'Survival', description: 'Our survival server', overall: overall('operational', 'All systems operational') },
  ];

  it('shows each page with its state in words beside an icon, passes axe and AA contrast in light and dark, and fits a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const opened = await open(renderHomePage(pages).body, { colorScheme, viewport: PHONE });
      try {
        const { page } = opened;
        const rows = page.getByTestId('page');
        expect(await rows.count()).toBe(pages.length);
        for (const [i, listed] of pages.entries()) {
          const row = rows.nth(i);
          expect(await row.getByRole('link', { name: listed.title }).getAttribute('href')).toBe(`/s/${listed.slug}`);
          // The state reads without colour: its words, and an icon of its own shape beside them.
          expect(await row.locator('.state').innerText()).toBe(listed.overall.label);
          expect(await row.locator('.state svg.icon').isVisible()).toBe(true);
        }
        expect(await page.getByRole('link', { name: 'Sign in to the dashboard' }).getAttribute('href')).toBe('/app/');
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), colorScheme).toEqual([]);
        expect(((await page.evaluate(CONTRAST)) as ContrastReport).failures, colorScheme).toEqual([]);
        expect(await scrollsSideways(page)).toBe(false);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    }
  });

  it('says so when no page is public, and passes axe', async () => {
    const opened = await open(renderHomePage([]).body);
    try {
      expect(await opened.page.getByText('No public status page yet.').isVisible()).toBe(true);
      const { violations } = await new AxeBuilder({ page: opened.page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
