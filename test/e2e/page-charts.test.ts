// The components section in real Chromium: each day's details by keyboard and by tap from one shared popover, the
// heading that follows the phone's 30 bars, the chart window chosen by links and kept by the live refresh, and no
// serious accessibility violation, at desktop and phone width.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { chartRange, htmlPageOptions } from '../../src/render/html-charts.js';
import { renderHtmlPage } from '../../src/render/html-page.js';
import { axeOn, seriousViolations as axeViolations } from '../axe.js';
import { launchChromium } from '../browser.js';
import { activeIncidentSnapshot } from '../fakes/snapshots.js';
import { scaled } from '../time-scale.js';

/** A popover follows focus and pointer after the page's script runs: under a loaded machine that can take seconds. */
const SETTLE = { timeout: scaled(5_000) };

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

/** Serves the snapshot's HTML page as the route would, ?range included; remembers every URL asked for. */
interface PageServer {
  url: string;
  urls: string[];
  setSnapshot(snapshot: Snapshot): void;
  close(): Promise<void>;
}

let browser: Browser;
let server: PageServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), servePage(activeIncidentSnapshot())]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()]);
});

async function servePage(initial: Snapshot): Promise<PageServer> {
  let snapshot = initial;
  const urls: string[] = [];
  const http: Server = createServer((request, response) => {
    urls.push(request.url ?? '');
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const range = chartRange(htmlPageOptions(query).range);
    const { body } = renderHtmlPage(snapshot, {
      jsonPath: '/status.json',
      markdownPath: '/status.md',
      refreshSeconds: 1,
      range,
    });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`,
    urls,
    setSnapshot: (next) => {
      snapshot = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function open(path: string, context: BrowserContextOptions): Promise<{ page: Page; close(): Promise<void> }> {
  const browserContext = await browser.newContext({ locale: 'en-GB', timezoneId: 'UTC', ...context });
  const page = await browserContext.newPage();
  await page.goto(server.url + path);
  return { page, close: () => browserContext.close() };
}

/** Serious axe violations in the components section (the rest of the page is page-render.test.ts's). */
async function seriousViolations(page: Page): Promise<string[]> {
  return axeViolations(page, axeOn(page).include('section[aria-labelledby="components-title"]').include('.day-pop'));
}

/** The shared popover's lines, when it shows. */
async function popover(page: Page): Promise<string[] | null> {
  return page.evaluate(() => {
    const pop = document.querySelector<HTMLElement>('.day-pop');
    return pop && !pop.hidden ? Array.from(pop.children, (line) => line.textContent ?? '') : null;
  });
}

/** Where the shown popover stands against the strip's chosen bar, or null while it is hidden (one read of both boxes). */
async function popoverOverBar(strip: Locator): Promise<{ above: boolean; overlaps: boolean } | null> {
  return strip.evaluate((el) => {
    const pop = document.querySelector<HTMLElement>('.day-pop');
    const bar = el.querySelector('span.on');
    if (!pop || pop.hidden || !bar) return null;
    const p = pop.getBoundingClientRect();
    const b = bar.getBoundingClientRect();
    return { above: p.bottom <= b.top + 0.5, overlaps: p.left < b.right && p.right > b.left };
  });
}

describe('the components section in a browser', () => {
  it('walks the days of a strip by keyboard, one popover announcing each as the slider’s value', async () => {
    const { page, close } = await open('', { viewport: DESKTOP });
    try {
      const lobby = page.getByRole('slider', { name: /^Lobby: / });
      await lobby.focus();
      expect(await lobby.getAttribute('aria-valuetext')).toBe('20 Nov 2026: 100.00% uptime');
      await expect.poll(() => popover(page), SETTLE).toEqual(['20 Nov 2026: 100.00% uptime']);
      // Refreshes that change nothing (one a second here) leave the reader's popover where it is.
      const asked = server.urls.length;
      await expect.poll(() => server.urls.length, { timeout: 10_000 }).toBeGreaterThan(asked + 2);
      expect(await popover(page)).toEqual(['20 Nov 2026: 100.00% uptime']);
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
      await expect
        .poll(() => popover(page), SETTLE)
        .toEqual(['17 Nov 2026: 100.00% uptime', 'Incident: Players disconnected from every server']);
      expect(await lobby.getAttribute('aria-valuetext')).toBe(
        '17 Nov 2026: 100.00% uptime. Incident: Players disconnected from every server',
      );
      expect(await lobby.getAttribute('aria-valuenow')).toBe('87');
      // The popover stands over the chosen bar (both boxes read in one evaluation).
      await expect.poll(() => popoverOverBar(lobby), SETTLE).toEqual({ above: true, overlaps: true });
      await page.keyboard.press('Home');
      await expect.poll(async () => (await popover(page))?.[0], SETTLE).toMatch(/^23 Aug 2026: /);
      await page.keyboard.press('End');
      await expect.poll(async () => (await popover(page))?.[0], SETTLE).toBe('20 Nov 2026: 100.00% uptime');
      // Each strip is one tab stop: Tab leaves it for the next component's strip, not the next day.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() =>
          document.activeElement?.closest('[data-component-id]')?.getAttribute('data-component-id'),
        ),
      ).toBe('survival');
      await expect
        .poll(() => popover(page), SETTLE)
        .toEqual(['20 Nov 2026: 100.00% uptime', 'Incident: Lag spikes on Survival']);
      expect(await page.locator('.day-pop').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => popover(page), SETTLE).toBeNull();
    } finally {
      await close();
    }
  });

  it('shows a tapped day on a phone, where the heading and the strip say 30 days', async () => {
    const { page, close } = await open('', { viewport: PHONE, hasTouch: true, isMobile: true });
    try {
      expect(await page.getByText('Uptime over the past 30 days').isVisible()).toBe(true);
      expect(await page.getByText('Uptime over the past 90 days').isVisible()).toBe(false);
      const website = page.getByRole('slider', { name: /^Website: / });
      await website
        .locator('span')
        .nth(89 - 9)
        .tap();
      await expect
        .poll(() => popover(page), SETTLE)
        .toEqual(['11 Nov 2026: 100.00% uptime', 'Incident: Website slow to load']);
      await expect
        .poll(async () => {
          const box = await page.locator('.day-pop').boundingBox();
          return box && { inside: box.x >= 0 && box.x + box.width <= PHONE.width };
        }, SETTLE)
        .toEqual({ inside: true });
      // Home goes to the first day shown: 29 days ago, not the 90 the phone hides.
      await page.keyboard.press('Home');
      await expect.poll(async () => (await popover(page))?.[0], SETTLE).toMatch(/^22 Oct 2026: /);
      expect(await website.getAttribute('aria-valuemax')).toBe('30');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(
        await page
          .getByRole('img', { name: /^Response time over 24 hours: / })
          .first()
          .isVisible(),
      ).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('changes the charts’ window by its links, and keeps it, and the reader’s day, through a live refresh', async () => {
    const { page, close } = await open('', { viewport: DESKTOP });
    try {
      await page.getByRole('navigation', { name: 'Chart period' }).getByRole('link', { name: '7 d' }).click();
      await page.waitForURL(/\?range=7d#components-title$/);
      expect(await page.getByRole('link', { name: '7 d' }).getAttribute('aria-current')).toBe('page');
      expect(await page.getByRole('img', { name: /^Players over 7 days: / }).count()).toBe(2);
      expect(await page.getByRole('img', { name: /over 24 hours/ }).count()).toBe(0);
      const lobby = page.getByRole('slider', { name: /^Lobby: / });
      await lobby.focus();
      await page.keyboard.press('ArrowLeft');
      // The page changes: the script fetches its own URL, ?range=7d and all, and swaps <main>.
      const before = server.urls.length;
      const changed = activeIncidentSnapshot();
      changed.components = changed.components.map((c) =>
        c.id === 'creative' ? { ...c, state: 'down' as const, monitorState: 'down' as const } : c,
      );
      server.setSnapshot(changed);
      await page.locator('[data-component-id="creative"][data-state="down"]').waitFor();
      expect(server.urls.slice(before).every((url) => url === '/?range=7d')).toBe(true);
      expect(await page.getByRole('img', { name: /^Players over 7 days: / }).count()).toBe(2);
      expect(
        await page.evaluate(() =>
          document.activeElement?.closest('[data-component-id]')?.getAttribute('data-component-id'),
        ),
      ).toBe('lobby');
      await expect.poll(async () => (await popover(page))?.[0], SETTLE).toBe('19 Nov 2026: 100.00% uptime');
    } finally {
      server.setSnapshot(activeIncidentSnapshot());
      await close();
    }
  });
});
