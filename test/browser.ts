// Real-browser helpers for page tests: Debian's Chromium through playwright-core, and a tiny server for given HTML.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's headless shell (package chromium-headless-shell: Chromium's old headless mode, the browser Playwright itself
 * runs headless tests in), else Chromium in its new headless mode, which is the whole browser without a window. Same
 * Blink, V8 and Skia, and the suite's browser files pass on both; the shell opens a context and its renderer for far
 * less: the 34 files that launch it took 288 core-seconds on it against 452 on Chromium (page-render.test.ts, a
 * context per check, 15 against 43). `.ci/run` installs it; without it the tests run on Chromium.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium with everything that would reach the network or the disk on its own turned off. `whole`: the
 * whole browser even where the shell is installed (the dashboard bench measures what a user's Chromium would do).
 */
export function launchChromium(options: { whole?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: !options.whole && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface HtmlServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** Serve this HTML from now on (the next request sees it). */
  setHtml(html: string): void;
  /** How many requests were answered, to tell a script's refresh from a reload. */
  requests(): number;
  close(): Promise<void>;
}

/** Serves the given HTML at every path on 127.0.0.1 with a free port, uncached, until closed. */
export async function serveHtml(html: string): Promise<HtmlServer> {
  let current = html;
  let count = 0;
  const server = createServer((request, response) => {
    count++;
    // Drain the body (a form POST) before answering, so the socket closes cleanly.
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(current);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    setHtml: (next) => {
      current = next;
    },
    requests: () => count,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
