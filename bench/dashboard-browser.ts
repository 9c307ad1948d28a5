// The dashboard in Chromium against a served Warden holding 10,000 monitors: first paint of /app, the monitor list
// interactive, and a search answered — each the median of several runs, beside a bare node:http page's first paint.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

import type { ServedDashboard } from './dashboard-served.js';

export { DASHBOARD_MONITORS, type ServedDashboard, serveDashboard } from './dashboard-served.js';

export { median } from './load.js';

/** A fresh, signed-in browser context (nothing cached: a first visit) at 1280×800. */
async function freshPage(
  served: ServedDashboard,
  signedIn = true,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await served.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  if (signedIn) await context.addCookies([{ name: 'warden_session', value: served.session, url: served.url }]);
  // tsx compiles with esbuild's keepNames, which wraps the functions handed to page.evaluate in a __name helper
  // that only exists in Node: give the page a stand-in.
  await context.addInitScript('globalThis.__name = (f) => f;');
  // When the first heading is drawn: the screen itself, past index.html's "Loading Warden…".
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('h1')) return;
      Object.assign(window, { wardenFirstHeading: performance.now() });
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** First contentful paint of `url` and its first heading drawn (ms after navigation start), from the page itself. */
async function firstPaint(page: Page, url: string): Promise<{ paint: number; heading: number }> {
  await page.goto(url, { waitUntil: 'load' });
  const paint = await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    null,
    { timeout: 10_000 },
  );
  const heading = await page.waitForFunction(
    () => (window as unknown as { wardenFirstHeading?: number }).wardenFirstHeading ?? null,
    null,
    { timeout: 10_000 },
  );
  return { paint: (await paint.jsonValue()) as number, heading: (await heading.jsonValue()) as number };
}

/**
 * (a) First paint of /app, signed in, and its screen drawn (the Monitors heading); and the first paint of a static
 * index.html from bare node:http, the floor any page pays here.
 */
export async function measureFirstPaint(
  served: ServedDashboard,
  runs: number,
): Promise<{ app: number[]; screen: number[]; baseline: number[] }> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Warden</title></head><body><main><h1>Warden</h1></main></body></html>';
  const bare = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(html),
  );
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const app: number[] = [];
  const screen: number[] = [];
  const baseline: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      for (const target of [`${served.url}/app`, bareUrl]) {
        const { page, close } = await freshPage(served, target !== bareUrl);
        try {
          const { paint, heading } = await firstPaint(page, target);
          if (target === bareUrl) baseline.push(paint);
          else {
            app.push(paint);
            screen.push(heading);
          }
        } finally {
          await close();
        }
      }
    }
  } finally {
    bare.close();
  }
  return { app, screen, baseline };
}

const ROWS = 'table tbody tr[data-index]';
const SEARCH = 'input[type="search"]';

/** (b) From navigation start: the first rows drawn, and the search box answering a key press. */
export async function measureListInteractive(
  served: ServedDashboard,
  runs: number,
): Promise<{ rows: number[]; interactive: number[] }> {
  const rows: number[] = [];
  const interactive: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { page, close } = await freshPage(served);
    try {
      await page.goto(`${served.url}/app/monitors`, { waitUntil: 'commit' });
      const drawn = await page.waitForFunction(
        (selectors) =>
          document.querySelector(selectors.rows) && document.querySelector(selectors.search) ? performance.now() : null,
        { rows: ROWS, search: SEARCH },
        { polling: 'raf', timeout: 15_000 },
      );
      rows.push((await drawn.jsonValue()) as number);
      await page.focus(SEARCH);
      await page.keyboard.press('L');
      const answered = await page.waitForFunction(
        (search) =>
          (document.querySelector(search) as HTMLInputElement | null)?.value === 'L' ? performance.now() : null,
        SEARCH,
        { polling: 'raf' },
      );
      interactive.push((await answered.jsonValue()) as number);
    } finally {
      await close();
    }
  }
  return { rows, interactive };
}

/**
 * (c) Typing a search until the list shows its answer (the count the server gives for it), and the API's answer time
 * for the same request (the browser's resource timing); the search box waits SEARCH_DEBOUNCE_MS after the last key.
 */
export async function measureFiltering(
  served: ServedDashboard,
  queries: readonly string[],
): Promise<{ toDom: number[]; api: number[]; requestToDom: number[] }> {
  const { page, close } = await freshPage(served);
  const toDom: number[] = [];
  const api: number[] = [];
  const requestToDom: number[] = [];
  try {
    await page.goto(`${served.url}/app/monitors`);
    await page.waitForSelector(ROWS);
    const all = await countText(served, '');
    for (const q of queries) {
      const expected = await countText(served, q);
      const result = await page.evaluate(
        async ({ q, expected, search }) => {
          const input = document.querySelector(search) as HTMLInputElement;
          const status = () =>
            Array.from(document.querySelectorAll('[role="status"]')).find((e) =>
              /^\d+ monitors?\b/.test(e.textContent ?? ''),
            )?.textContent ?? '';
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set as (
            this: HTMLInputElement,
            v: string,
          ) => void;
          performance.clearResourceTimings();
          const typed = performance.now();
          setValue.call(input, q);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          const shown = await new Promise<number>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no answer for ${q}: ${status()}`)), 10_000);
            const check = () => {
              if (status() === expected) {
                clearTimeout(timer);
                observer.disconnect();
                resolve(performance.now());
              }
            };
            const observer = new MutationObserver(check);
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
            check();
          });
          const request = performance
            .getEntriesByType('resource')
            .find((e) => e.name.includes('/api/v1/monitors?') && new URL(e.name).searchParams.get('q') === q) as
            | PerformanceResourceTiming
            | undefined;
          return {
            toDom: shown - typed,
            api: request ? request.responseEnd - request.startTime : Number.NaN,
            requestToDom: request ? shown - request.startTime : Number.NaN,
          };
        },
        { q, expected, search: SEARCH },
      );
      toDom.push(result.toDom);
      api.push(result.api);
      requestToDom.push(result.requestToDom);
      // Back to the whole list (cached) before the next search.
      await page.fill(SEARCH, '');
      await page.waitForFunction(
        (all) =>
          Array.from(document.querySelectorAll('[role="status"]')).some((e) => (e.textContent ?? '').startsWith(all)),
        all,
      );
    }
  } finally {
    await close();
  }
  return { toDom, api, requestToDom };
}

/** The list's count text for a search, from the API itself ("111 monitors (111 loaded)" when they fit a page). */
async function countText(served: ServedDashboard, q: string): Promise<string> {
  const res = await fetch(`${served.url}/api/v1/monitors?limit=200${q ? `&q=${encodeURIComponent(q)}` : ''}`, {
    headers: { authorization: `Bearer ${served.apiKey}` },
  });
  const { total, monitors } = (await res.json()) as { total: number; monitors: unknown[] };
  return `${total} monitor${total === 1 ? '' : 's'}${total > monitors.length ? ` (${monitors.length} loaded)` : ''}`;
}
