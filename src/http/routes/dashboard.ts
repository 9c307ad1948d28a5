// The dashboard (web/, built into dist/web by `npm run build`) at /app: index.html for every screen's path with a fresh
// CSP nonce, and the hashed assets cached for a year, in the precompressed variant the client accepts.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import type { App, AppEnv } from '../app.js';
import { problem, problemResponse } from '../problem.js';

/**
 * Built by Vite next to the compiled server. From a build (npm start, the bin) the dashboard of that same build, the
 * folder dist/ pointed to when the server started: a later build made live meanwhile does not change the files it
 * serves (scripts/builds.ts keeps the build before the live one). From src/ (tests, tsx) the checkout's dist/web.
 */
const OWN_BUILD_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
export const DASHBOARD_DIR = existsSync(OWN_BUILD_DIR) ? OWN_BUILD_DIR : fileURLToPath(new URL('../../../dist/web/', import.meta.url));
/** web/vite.config.ts writes this into index.html where the nonce goes (html.cspNonce). */
const NONCE_PLACEHOLDER = 'WARDEN_CSP_NONCE';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  woff: 'font/woff',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};
/** Preferred first: brotli is smaller, gzip is understood everywhere. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Scripts only from Warden itself, never inline; Mantine's <style> tags carry the nonce; nothing may frame the dashboard. */
export function dashboardCsp(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

interface Build {
  /** index.html split where the nonce goes. */
  index: string[];
  /** Asset file names (with their .gz/.br variants) under dist/web/assets. */
  assets: Set<string>;
}

export function dashboardRoutes(app: App, dir: string = DASHBOARD_DIR): void {
  // Read on first use, once: the build does not change while the server runs, and tests that never open /app read nothing.
  let build: Build | null | undefined;
  const built = (): Build | null => {
    if (build === undefined) build = readBuild(dir);
    return build;
  };
  const files = new Map<string, Buffer>();

  app.get('/app/assets/*', (c) => {
    if (onPageDomain(c)) return notFound(c);
    const name = c.req.path.slice('/app/assets/'.length);
    const assets = built()?.assets;
    const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (!assets?.has(name) || type === undefined) return notFound(c);
    const encoding = ENCODINGS.find((e) => assets.has(name + e.suffix) && accepts(c.req.header('accept-encoding'), e.name));
    const file = name + (encoding?.suffix ?? '');
    let bytes = files.get(file);
    if (!bytes) {
      bytes = readFileSync(join(dir, 'assets', file));
      files.set(file, bytes);
    }
    const compressible = ENCODINGS.some((e) => assets.has(name + e.suffix));
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': type,
      'cache-control': IMMUTABLE,
      'x-content-type-options': 'nosniff',
      ...(encoding ? { 'content-encoding': encoding.name } : {}),
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    });
  });

  const page = (c: Context<AppEnv>) => {
    if (onPageDomain(c)) return notFound(c);
    const index = built()?.index;
    if (!index)
      return problemResponse(c, problem(503, 'dashboard-not-built', 'Dashboard not built', 'The dashboard is not built in this installation: run `npm run build`.'));
    const nonce = randomBytes(16).toString('base64');
    return c.body(index.join(nonce), 200, {
      'content-type': 'text/html; charset=utf-8',
      // Always asked again: it names the current hashed assets, and its nonce is new each time.
      'cache-control': 'no-cache',
      'content-security-policy': dashboardCsp(nonce),
      'x-frame-options': 'DENY',
      // Setup, invitation and reset links carry their token in the query: no other site sees them.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
  };
  app.get('/app', page);
  app.get('/app/*', page);
}

function readBuild(dir: string): Build | null {
  try {
    return { index: readFileSync(join(dir, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER), assets: new Set(readdirSync(join(dir, 'assets'))) };
  } catch {
    return null;
  }
}

/** A page's custom domain serves that page, not the dashboard: sessions belong to Warden's own address. */
function onPageDomain(c: Context<AppEnv>): boolean {
  const host = c.req.header('host');
  return host !== undefined && c.get('deps').pages.pageByDomain(host) !== undefined;
}

function notFound(c: Context<AppEnv>): Response {
  return problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`));
}

/** Whether Accept-Encoding allows this coding (named, or `*`, with a q above zero). */
export function accepts(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (token === coding) return allowed;
    if (token === '*') star = allowed;
  }
  return star;
}
