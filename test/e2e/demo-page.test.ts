// The demo page a fresh server creates, in real Chromium: it checks itself and shows its live components.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { saveScreenshot } from '../screenshots.js';
import { scaled } from '../time-scale.js';

describe('the demo page in a real browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-demo-'));

  beforeAll(async () => {
    server = await startServer([], { WARDEN_DATA_DIR: dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads /s/demo with the banner and its live components, the whole page light and as wide as the screen', {
    timeout: scaled(60_000),
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    // The demo checks itself; wait for its first results to reach the page.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${server.url}/api/v1/status/demo`);
          const snapshot = (await response.json()) as { components: { monitorState: string }[] };
          return snapshot.components.filter((c) => c.monitorState === 'up').length;
        },
        { timeout: 45_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(1);
    const response = await page.goto(`${server.url}/s/demo`);
    expect(response?.status()).toBe(200);
    const banner = page.getByTestId('overall');
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.getAttribute('data-state')).toMatch(/^(operational|degraded|unknown)$/);
    const components = page.getByTestId('component');
    expect(await components.count()).toBe(3);
    const names = await components.allTextContents();
    expect(names.join(' ')).toContain('Website');
    expect(names.join(' ')).toContain('TCP port');
    expect(names.join(' ')).toContain('Heartbeat');
    await saveScreenshot(page, 'demo-page.png', { looks: 'light', fullPage: true });
    await page.close();
  });
});
