// Real-browser helpers for page tests: Debian's Chromium through playwright-core, and a tiny server for given HTML.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

/** Headless Chromium with everything that would reach the network or the disk on its own turned off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
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
