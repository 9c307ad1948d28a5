// The interactive API reference at /docs: Swagger UI from the installed swagger-ui-dist package (no CDN), reading /api/openapi.json.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { App } from '../app.js';

/** The only files served from swagger-ui-dist, with their types; nothing else of node_modules is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const ASSET_CACHE_CONTROL = 'public, max-age=86400';
/** Like a status page's: no other site frames the reference, links send the origin only, nothing is sniffed. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Warden API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="stylesheet" href="/docs/index.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

export function docsRoutes(app: App): void {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Read once on first use and kept: a few MB in all, and the page is not a hot path.
  const files = new Map<string, Promise<ArrayBuffer>>();
  const page = () =>
    new Response(INDEX_HTML, { headers: PAGE_HEADERS });
  app.get('/docs', page);
  app.get('/docs/', page);
  app.get('/docs/init.js', () => new Response(INIT_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' } }));
  for (const [name, type] of Object.entries(ASSETS))
    app.get(`/docs/${name}`, async () => {
      let bytes = files.get(name);
      if (!bytes) {
        bytes = readFile(join(dir, name)).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
        files.set(name, bytes);
        bytes.catch(() => files.delete(name));
      }
      return new Response(await bytes, { headers: { 'content-type': type, 'cache-control': ASSET_CACHE_CONTROL, 'x-content-type-options': 'nosniff' } });
    });
}
