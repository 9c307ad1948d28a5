// The interactive API reference at /docs: OpenAPI Explorer's self-contained browser bundle from the installed
// openapi-explorer package (no CDN, no fonts, no analytics), reading /api/openapi.json and trying requests on this origin.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { App } from '../env.js';

/** The one file served from openapi-explorer: a classic script holding the whole web component (about 750 kB). */
const BUNDLE_PATH = '/docs/openapi-explorer.js';
const BUNDLE_FILE = 'dist/browser/openapi-explorer.min.js';

const ASSET_CACHE_CONTROL = 'public, max-age=86400';
/**
 * Like a status page's: scripts, styles, requests (the explorer's "try it") only to this origin; no other site frames
 * the reference, links send the origin only, nothing is sniffed. The component's styles are constructed stylesheets
 * and its own `style` attributes, hence 'unsafe-inline' for styles only.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};
const SCRIPT_HEADERS = { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' };

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Warden API reference</title>
  <link rel="icon" href="data:,">
  <style>html, body { margin: 0; height: 100%; } openapi-explorer { font-family: system-ui, sans-serif; }</style>
  <script src="${BUNDLE_PATH}"></script>
  <script src="/docs/init.js"></script>
</head>
<body>
  <openapi-explorer spec-url="/api/openapi.json" collapse schema-expand-level="2" default-schema-tab="body"></openapi-explorer>
</body>
</html>
`;

/**
 * The document's `servers` entry is WARDEN_BASE_URL; "try it" is sent to the origin the reference was opened on
 * instead, the only one the page's connect-src allows (they differ behind a proxy, or on 127.0.0.1 vs localhost). The
 * explorer picks the document's first server when the spec loads, so the origin is set once it has (the event bubbles:
 * listening on the document from <head> cannot miss it).
 */
const INIT_JS = `document.addEventListener('spec-loaded', function (event) {
  event.target.setAttribute('server-url', window.location.origin);
});
`;

export function docsRoutes(app: App): void {
  const file = join(dirname(createRequire(import.meta.url).resolve('openapi-explorer/package.json')), BUNDLE_FILE);
  // Read once on first use and kept: the page is not a hot path.
  let bundle: Promise<ArrayBuffer> | undefined;
  const page = () => new Response(INDEX_HTML, { headers: PAGE_HEADERS });
  app.get('/docs', page);
  app.get('/docs/', page);
  app.get(
    '/docs/init.js',
    () => new Response(INIT_JS, { headers: { ...SCRIPT_HEADERS, 'cache-control': 'no-cache' } }),
  );
  app.get(BUNDLE_PATH, async () => {
    if (!bundle) {
      bundle = readFile(file).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
      bundle.catch(() => {
        bundle = undefined;
      });
    }
    return new Response(await bundle, { headers: { ...SCRIPT_HEADERS, 'cache-control': ASSET_CACHE_CONTROL } });
  });
}
