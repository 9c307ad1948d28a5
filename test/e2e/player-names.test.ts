// Who is online in Chromium: the list opens and closes by keyboard, shows names as text, and stays open (and focused)
// when the page updates itself.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import { HOSTILE_PLAYER, playersSnapshot } from '../fakes/players-scene.js';
import { open, PHONE, render, scrollsSideways } from './page-harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('who is online on the HTML page', () => {
  it('opens and closes the list by keyboard, and shows a hostile name as text', async () => {
    const opened = await open(browser, render(playersSnapshot()));
    try {
      const { page } = opened;
      const creative = page.locator('[data-component-id="creative"] [data-testid="player-names"]');
      const toggle = creative.locator('summary');
      const names = creative.locator('.who-list li');
      expect(await toggle.textContent()).toBe('12 online');
      expect(await names.first().isVisible()).toBe(false);
      // Tab from the element before it (the survival server's uptime strip) reaches the toggle.
      await page.locator('[data-component-id="survival"] .strip').focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('12 online');
      await page.keyboard.press('Enter');
      await expect.poll(() => names.first().isVisible()).toBe(true);
      expect(await names.allTextContents()).toContain(HOSTILE_PLAYER);
      expect(await creative.locator('img').count()).toBe(0);
      await page.keyboard.press('Space');
      await expect.poll(() => names.first().isVisible()).toBe(false);
      await page.keyboard.press('Enter');
      await expect.poll(() => names.first().isVisible()).toBe(true);
      expect(opened.dialogs).toEqual([]);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('says how many of the players online a partial list shows, and fits a phone', async () => {
    const opened = await open(browser, render(playersSnapshot()), { viewport: PHONE });
    try {
      const { page } = opened;
      const survival = page.locator('[data-component-id="survival"] [data-testid="player-names"]');
      expect(await survival.locator('summary').textContent()).toBe('87 online');
      await survival.locator('summary').click();
      expect(await survival.locator('.who-note').textContent()).toBe('Showing 12 of 87');
      expect(await scrollsSideways(page)).toBe(false);
    } finally {
      await opened.close();
    }
  });

  it('keeps an opened list open and its toggle focused when the page refreshes itself', async () => {
    const snapshot = playersSnapshot();
    const opened = await open(browser, render(snapshot));
    try {
      const { page } = opened;
      const toggle = page.locator('[data-component-id="creative"] [data-testid="player-names"] summary');
      await toggle.focus();
      await page.keyboard.press('Enter');
      // The next rendering: a new name, a later time; the script swaps <main> when it polls (the stream is down here).
      const next = playersSnapshot();
      const creative = next.components.find((c) => c.id === 'creative');
      creative?.live?.playerNames?.push('Newcomer');
      opened.setHtml(render({ ...next, generatedAt: next.generatedAt + 60_000 }));
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      const list = page.locator('[data-component-id="creative"] .who-list');
      await expect.poll(() => list.textContent(), { timeout: 5000 }).toContain('Newcomer');
      expect(await page.locator('[data-component-id="creative"] details.who').getAttribute('open')).toBe('');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('13 online');
    } finally {
      await opened.close();
    }
  });
});
