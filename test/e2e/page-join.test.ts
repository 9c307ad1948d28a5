// Join buttons in real Chromium: the copy button is reached by keyboard, labelled, puts the address on the clipboard
// and says so; without a clipboard the address is selected instead; a Steam link has its steam:// address.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeOn } from '../axe.js';
import { launchChromium } from '../browser.js';
import { joinSnapshot } from '../fakes/join-snapshot.js';
import { open, render } from './page-harness.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Serious or critical WCAG 2.1 AA violations in the join rows (contrast included). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await axeOn(page).include('.join').analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

describe('join buttons on the status page', () => {
  it('copies the address by keyboard, with a label and a visible "Copied"', async () => {
    const opened = await open(browser, render(joinSnapshot()), {
      context: { permissions: ['clipboard-read', 'clipboard-write'] },
    });
    try {
      const { page } = opened;
      const button = page.getByRole('button', { name: 'Copy address: Survival <SMP> (play.example.com)' });
      await expect.poll(() => button.count()).toBe(1);
      // Tab through the page until the button has focus: it is in the keyboard order.
      let reached = false;
      for (let i = 0; i < 60 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await button.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      const note = page.locator('[data-component-id="mc"] [data-testid="join-note"]');
      await expect.poll(() => note.textContent()).toBe('Copied');
      expect(await note.isVisible()).toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('play.example.com');
      expect(opened.errors).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('selects the address as text where there is no clipboard', async () => {
    const opened = await open(browser, render(joinSnapshot()));
    try {
      const { page } = opened;
      await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
      await page.locator('[data-component-id="mc"] [data-testid="join-copy"]').click();
      const note = page.locator('[data-component-id="mc"] [data-testid="join-note"]');
      await expect.poll(() => note.textContent()).toContain('the address is selected');
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('play.example.com');
    } finally {
      await opened.close();
    }
  });

  it('links Steam and cfx.re with real, labelled links, and has no serious accessibility violation', async () => {
    const opened = await open(browser, render(joinSnapshot()), { colorScheme: 'dark' });
    try {
      const { page } = opened;
      const steam = page.getByRole('link', { name: 'Join via Steam: Counter-Strike (203.0.113.5:27015)' });
      expect(await steam.getAttribute('href')).toBe('steam://connect/203.0.113.5:27015');
      const cfx = page.getByRole('link', { name: 'Join server: Roleplay (cfx.re/join/abc123)' });
      expect(await cfx.getAttribute('href')).toBe('https://cfx.re/join/abc123');
      await steam.focus();
      expect(await steam.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
