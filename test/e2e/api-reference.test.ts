// The API reference at /docs in real Chromium, on a real Warden: the operations of /api/openapi.json render, "try it"
// sends a request to this origin and shows the answer, and the page asks nothing of any other host, under its own CSP.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../browser.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';

const YAML = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, config: { graceSec: 600 } }
pages:
  - slug: main
    title: Acme status
    components: [{ name: Lobby, monitor: lobby }]
`;

/** Where the document's `servers` entry points: the public address, not the one the browser opens here. */
const PUBLIC_URL = 'https://status.example.com';

describe('the API reference at /docs', () => {
  let warden: SeededWarden;
  let browser: Browser;
  beforeAll(async () => {
    [warden, browser] = await Promise.all([
      startSeededWarden(dialects[0] as (typeof dialects)[number], YAML, { WARDEN_BASE_URL: PUBLIC_URL }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await warden?.close();
  });

  it('renders the operations, tries one on this origin, and requests nothing from elsewhere', {
    timeout: scaled(40_000),
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const response = await page.goto(`${warden.url}/docs`);
    expect(response?.status()).toBe(200);

    // The document's own title and its tags, drawn from /api/openapi.json inside the component.
    const explorer = page.locator('openapi-explorer');
    await expect
      .poll(() => explorer.getByText('Warden API', { exact: true }).first().isVisible(), { timeout: 10_000 })
      .toBe(true);
    for (const tag of ['Status', 'Monitors', 'Pages', 'Incidents'])
      expect(await explorer.locator(`#link-tag--${tag}`).isVisible(), tag).toBe(true);

    // "Try it": the public snapshot of the seeded page. The document's server is WARDEN_BASE_URL; the request goes to
    // the origin the page was opened on instead, the only one its connect-src allows.
    await explorer.locator('#link-tag--Status').click();
    await explorer.getByText('The snapshot of a status page', { exact: true }).first().click();
    await explorer.locator('input[data-pname="slug"]:visible').fill('main');
    await explorer.locator('button.btn-execute:visible').click();
    await expect
      .poll(() => explorer.getByText('Response Status: OK (200)').first().isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(requests).toContain(`${warden.url}/api/v1/status/main`);

    const origin = new URL(warden.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin && !url.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
