// Opening rendered pages in Chromium for the page tests: a served document in a fresh context, its console errors and
// dialogs, whether it scrolls sideways, and the WCAG contrast of every visible text.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { Snapshot } from '../../src/domain/snapshot.js';
import { type HtmlPageOptions, renderHtmlPage } from '../../src/render/html-page.js';
import { serveHtml } from '../browser.js';

export const OPTIONS: HtmlPageOptions = {
  jsonPath: '/api/status.json',
  markdownPath: '/status.md',
  feedPath: '/feed.rss',
  refreshSeconds: 60,
};
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 900 };

export interface Opened {
  page: Page;
  /** Console errors and page errors; a CSP refusal of our own script or style would show here. */
  errors: string[];
  /** Messages of alert/confirm/prompt dialogs that opened. */
  dialogs: string[];
  close(): Promise<void>;
}

/** Serves the HTML and opens it in a fresh context (UTC, English) with the given viewport and colour scheme. */
export async function open(
  browser: Browser,
  html: string,
  options: {
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
    context?: BrowserContextOptions;
  } = {},
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

export const render = (snapshot: Snapshot, options: Partial<HtmlPageOptions> = {}) =>
  renderHtmlPage(snapshot, { ...OPTIONS, ...options }).body;

/** Whether the document is wider than the viewport, i.e. the reader would have to scroll sideways. */
export const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/*
 * Contrast is computed in the page: WCAG relative luminance of each visible text's colour against the first opaque
 * background behind it. Written as a string so the test runner's transform cannot alter the code that is sent.
 */
export const CONTRAST = `(() => {
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

export interface ContrastReport {
  body: number;
  bodyBackground: string;
  checked: number;
  failures: string[];
}
