// Warden's own pages in real Chromium: the page login, not-found and the landing page (phone, dark mode, contrast, axe).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageState } from '../../src/domain/snapshot.js';
import { type ListedPage, renderHomePage } from '../../src/render/home-page.js';
import { renderLoginPage } from '../../src/render/login-page.js';
import { renderNotFoundPage } from '../../src/render/not-found-page.js';
import { axeOn } from '../axe.js';
import { launchChromium } from '../browser.js';
import { saveScreenshot } from '../screenshots.js';
import { CONTRAST, type ContrastReport, open, PHONE, scrollsSideways } from './page-harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the login and not-found pages in Chromium', () => {
  it('focuses a labelled password field, fits a phone and looks dark when asked', async () => {
    const html = renderLoginPage({ action: '/blockhaven/unlock', error: 'Wrong password.' }).body;
    const opened = await open(browser, html, { viewport: PHONE, colorScheme: 'dark' });
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
    const opened = await open(browser, renderNotFoundPage('blockhavn').body, { viewport: PHONE });
    try {
      expect(await opened.page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'No status page called “blockhavn” here',
      );
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
    {
      slug: 'events',
      title: 'Events',
      description: 'Stages and tournaments',
      overall: overall('maintenance', 'Scheduled maintenance in progress'),
    },
    { slug: 'modded', title: 'Modded', description: null, overall: overall('unknown', 'Status unknown') },
    {
      slug: 'skyblock',
      title: 'Skyblock',
      description: null,
      overall: overall('degraded', 'Partial outage: 1 of 4 components down'),
    },
    {
      slug: 'survival',
      title: 'Survival',
      description: 'Our survival server',
      overall: overall('operational', 'All systems operational'),
    },
  ];

  it('shows each page with its state in words beside an icon, passes axe and AA contrast in light and dark, and fits a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const opened = await open(browser, renderHomePage(pages).body, { colorScheme, viewport: PHONE });
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
        const { violations } = await axeOn(page).analyze();
        expect(
          violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          colorScheme,
        ).toEqual([]);
        expect(((await page.evaluate(CONTRAST)) as ContrastReport).failures, colorScheme).toEqual([]);
        expect(await scrollsSideways(page)).toBe(false);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.close();
      }
    }
  });

  it('says so when no page is public, and passes axe', async () => {
    const opened = await open(browser, renderHomePage([]).body);
    try {
      expect(await opened.page.getByText('No public status page yet.').isVisible()).toBe(true);
      const { violations } = await axeOn(opened.page, ['wcag2a', 'wcag2aa']).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
