// The accessibility check the browser tests share (test/axe.ts) still finds what axe finds, whichever way it runs:
// in the page when every frame is of the page's origin, through partial runs when one is not.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { type HtmlServer, launchChromium, serveHtml } from './browser.js';

/** Grey on white (2.3:1, a serious contrast failure) and an image with no text alternative (critical). */
const FLAWED = `<!doctype html><html lang="en"><head><title>Flawed</title></head><body><main>
<p style="color:#aaa;background:#fff">Faint text</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
</main></body></html>`;
const CLEAN = `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><p>Plain text</p></main></body></html>`;
const framing = (frame: string) =>
  `<!doctype html><html lang="en"><head><title>Host</title></head><body><main><p>Host</p>
<iframe title="Framed" ${frame}></iframe></main></body></html>`;
/** The flawed page inside a frame of the host's origin (srcdoc), or loaded from another origin. */
const sameOriginFrame = framing(`srcdoc="${FLAWED.replaceAll('"', '&quot;')}"`);
const crossOriginFrame = (src: string) => framing(`src="${src}"`);

describe('the shared axe check', () => {
  let browser: Browser;
  const servers: HtmlServer[] = [];
  const serve = async (html: string) => {
    const server = await serveHtml(html);
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  const ids = (violations: string[]) => violations.map((v) => v.split(':')[0]).sort();

  it('reports a page’s serious and critical violations, and none on a clean page', async () => {
    // Partial runs finish in a new page of the context: a context of its own, as the browser tests open.
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto((await serve(FLAWED)).url);
      expect(ids(await seriousViolations(page))).toEqual(['color-contrast', 'image-alt']);
      await page.goto((await serve(CLEAN)).url);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reads into a frame of the same origin and into one of another origin', async () => {
    // Partial runs finish in a new page of the context: a context of its own, as the browser tests open.
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto((await serve(sameOriginFrame)).url);
      await page.frameLocator('iframe').locator('main').waitFor();
      expect(ids(await seriousViolations(page))).toEqual(['color-contrast', 'image-alt']);
      // 127.0.0.1 and localhost are different origins.
      const flawed = await serve(FLAWED);
      await page.goto((await serve(crossOriginFrame(flawed.url.replace('127.0.0.1', 'localhost')))).url);
      await page.frameLocator('iframe').locator('main').waitFor();
      expect(page.frames().map((f) => new URL(f.url()).hostname)).toEqual(['127.0.0.1', 'localhost']);
      expect(ids(await seriousViolations(page))).toEqual(['color-contrast', 'image-alt']);
    } finally {
      await context.close();
    }
  });
});
