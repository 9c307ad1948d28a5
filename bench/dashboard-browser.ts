// The dashboard in Chromium against a served Warden holding 10,000 monitors: first paint of /app, the monitor list
// interactive, and a search answered — each the median of several runs, beside a bare node:http page's first paint.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createInProcessBus } from '../src/bus/bus.js';
import { readSettings } from '../src/config/settings.js';
import { type CheckRow, HOUR_MS } from '../src/domain/check.js';
import { createLogger } from '../src/logger.js';
import { startWarden, type Warden } from '../src/main.js';
import { createApiKey } from '../src/services/api-keys/create.js';
import type { Store } from '../src/store/index.js';
import { signedInUser } from '../test/accounts.js';
import { launchChromium } from '../test/browser.js';
import { dialects, type OpenedStore } from '../test/store-dialects.js';

export const DASHBOARD_MONITORS = Number(process.env.BENCH_DASHBOARD_MONITORS ?? 10_000);
const STATES = ['up', 'up', 'up', 'up', 'degraded', 'down', 'unknown'] as const;
/** Monitors with a day of checks, so the first screens of the list draw sparklines. */
const WITH_HISTORY = 400;

export interface ServedDashboard {
  url: string;
  /** The session cookie's value of a signed-in owner. */
  session: string;
  /** A read key, to ask the API what a search should show. */
  apiKey: string;
  browser: Browser;
  close(): Promise<void>;
}

/** SQLite, seeded through the store, served by a real Warden (startWarden) on a free port, and a Chromium. */
export async function serveDashboard(): Promise<ServedDashboard> {
  const sqlite = dialects.find((d) => d.name === 'sqlite');
  if (!sqlite) throw new Error('no SQLite dialect');
  const opened: OpenedStore = await sqlite.open();
  const now = Date.now();
  const started = performance.now();
  const organizationId = await seedMonitors(opened.store, now);
  const context = {
    store: opened.store,
    bus: createInProcessBus(),
    clock: { now: () => Date.now() },
    logger: createLogger('silent'),
    organizationId,
  };
  const owner = await signedInUser(context, [{ organizationId, role: 'owner' }], { name: 'Bench Owner' });
  const { secret } = await createApiKey(context, { name: 'bench', scope: 'read' });
  console.log(
    `  seeded ${DASHBOARD_MONITORS} monitors (${WITH_HISTORY} with a day of checks) in ${Math.round(performance.now() - started)} ms`,
  );
  const warden: Warden = await startWarden({
    settings: readSettings({
      ...opened.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      WARDEN_API_RATE_LIMIT: '100000',
    }),
    logger: createLogger('silent'),
  });
  const browser = await launchChromium();
  return {
    url: warden.url.replace('localhost', '127.0.0.1'),
    session: owner.token,
    apiKey: secret,
    browser,
    async close() {
      await browser.close();
      await warden.close();
      await opened.cleanup();
    },
  };
}

/**
 * One organization of heartbeat monitors (nothing is probed, so serving them reaches no network) with states and
 * latencies spread over them, and a day of checks, one every 20 minutes, for the first WITH_HISTORY.
 */
async function seedMonitors(store: Store, now: number): Promise<string> {
  const organizationId = 'org_dashbench';
  await store.organizations.upsert({ id: organizationId, key: 'bench', name: 'Bench' }, now);
  const ids = Array.from({ length: DASHBOARD_MONITORS }, (_, i) => `mon_${String(i).padStart(5, '0')}`);
  await store.transaction(async (tx) => {
    for (const [i, id] of ids.entries())
      await tx.monitors.insert(
        {
          id,
          organizationId,
          key: `lobby-${i}`,
          name: `Lobby ${i}`,
          type: 'heartbeat',
          config: { graceSec: 7 * 24 * 3600 },
          intervalSec: 60,
          timeoutMs: 5000,
          runOn: 'push',
          relayId: null,
          enabled: true,
          retries: 0,
          degradedLatencyMs: null,
          tags: [['eu', 'us', 'asia'][i % 3] as string],
          managedBy: 'api',
          pushToken: null,
        },
        now - 2 * 24 * HOUR_MS,
      );
    const states = ids.map((id, i) => {
      const state = STATES[i % STATES.length] as (typeof STATES)[number];
      const lastResult = JSON.stringify({
        checkedAt: now,
        ok: state !== 'down',
        latencyMs: state === 'down' ? null : (i * 37) % 900,
        message: null,
        error: null,
        data: null,
        source: 'push',
      });
      return {
        id,
        organizationId,
        retries: 0,
        degradedLatencyMs: null,
        state,
        stateSince: now - i * 1000,
        failureStreak: 0,
        lastCheckAt: now,
        lastResult,
      };
    });
    await tx.checks.write([], states);
  });
  const history: CheckRow[] = [];
  for (const id of ids.slice(0, WITH_HISTORY))
    for (let t = now - 24 * HOUR_MS; t < now; t += 20 * 60_000) {
      const ok = Math.abs(Math.sin(t + id.length)) > 0.05;
      history.push({
        monitorId: id,
        checkedAt: t,
        ok,
        degraded: false,
        latencyMs: ok ? 20 + (t % 180) : null,
        message: null,
        error: ok ? null : 'missed',
        data: null,
        source: 'push',
        resultId: null,
      });
    }
  for (let i = 0; i < history.length; i += 5000) await store.checks.write(history.slice(i, i + 5000), []);
  return organizationId;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

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
