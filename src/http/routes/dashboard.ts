// The dashboard (web/, built into dist/web by `npm run build`) at /app: index.html for every screen's path with a fresh
// CSP nonce, and the hashed assets cached for a year, in the precompressed variant the client accepts.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import type { App, AppEnv } from '../env.js';
import { isLoopbackHost } from '../local-setup.js';
import { problem, problemResponse } from '../problem.js';

/** What dist/ holds now: the checkout's dist/web, the same path from src/ (tests, tsx) and from a build. */
const LIVE_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));
/** Beside the compiled server, from a build (npm start, the bin): the folder dist/ pointed to when the server started. */
const OWN_BUILD_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
/**
 * Where the dashboard is read from, in order. A server serves the dashboard of the build it started from, whatever
 * build is made live meanwhile (scripts/builds.ts); once that build is removed (two builds later), what dist/ holds:
 * an asset's name is its content's hash, so a file of the same name in a later build holds the same bytes.
 */
export const DASHBOARD_DIRS: readonly string[] = existsSync(OWN_BUILD_DIR) ? [OWN_BUILD_DIR, LIVE_DIR] : [LIVE_DIR];
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

/**
 * Scripts only from Warden itself, never inline; Mantine's <style> tags carry the nonce; nothing may frame the dashboard.
 * `localSetup`: the local setup listener's origin, which the setup screen opened on the server's machine may ask.
 */
export function dashboardCsp(nonce: string, localSetup?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${localSetup ? ` ${localSetup}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

interface Build {
  /** The folder it was read from, one of the dashboard's places. */
  dir: string;
  /** index.html split where the nonce goes. */
  index: string[];
  /** Asset file names (with their .gz/.br variants) under dist/web/assets. */
  assets: Set<string>;
}

export function dashboardRoutes(app: App, dirs: string | readonly string[] = DASHBOARD_DIRS): void {
  const places = typeof dirs === 'string' ? [dirs] : dirs;
  // Read on first use, once: the build does not change while the server runs, and tests that never open /app read nothing.
  let build: Build | null | undefined;
  const built = (): Build | null => {
    if (build === undefined) build = places.reduce<Build | null>((found, dir) => found ?? readBuild(dir), null);
    return build;
  };
  const files = new Map<string, Buffer>();

  app.get('/app/assets/*', (c) => {
    if (onPageDomain(c)) return notFound(c);
    const name = c.req.path.slice('/app/assets/'.length);
    const current = built();
    const assets = current?.assets;
    const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (!current || !assets?.has(name) || type === undefined) return notFound(c);
    const encoding = ENCODINGS.find(
      (e) => assets.has(name + e.suffix) && accepts(c.req.header('accept-encoding'), e.name),
    );
    const file = name + (encoding?.suffix ?? '');
    let bytes = files.get(file);
    if (!bytes) {
      bytes = readAsset(places.slice(places.indexOf(current.dir)), file);
      if (!bytes) return notFound(c);
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
      return problemResponse(
        c,
        problem(
          503,
          'dashboard-not-built',
          'Dashboard not built',
          'The dashboard is not built in this installation: run `npm run build`.',
        ),
      );
    const nonce = randomBytes(16).toString('base64');
    const localSetup = isLoopbackHost(c.req.header('host')) ? c.var.deps.localSetupUrl?.() : null;
    return c.body(index.join(nonce), 200, {
      'content-type': 'text/html; charset=utf-8',
      // Always asked again: it names the current hashed assets, and its nonce is new each time.
      'cache-control': 'no-cache',
      'content-security-policy': dashboardCsp(nonce, localSetup ? new URL(localSetup).origin : undefined),
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
    return {
      dir,
      index: readFileSync(join(dir, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER),
      assets: new Set(readdirSync(join(dir, 'assets'))),
    };
  } catch {
    return null;
  }
}

/** An asset's bytes from the first of `dirs` that still has it (a build removed since the server read its list has not). */
function readAsset(dirs: readonly string[], file: string): Buffer | undefined {
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, 'assets', file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
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
