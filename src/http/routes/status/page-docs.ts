// The public status endpoints in the OpenAPI document: the snapshot, every form of a page, the Statuspage-compatible
// answers, the page's assets and its live stream (served by the page middleware of index.ts, not by these entries).
import { z } from '@hono/zod-openapi';
import { PAGE_ASSET_NAMES } from '../../../domain/branding.js';
import { CHART_RANGES, snapshotSchema } from '../../../domain/snapshot.js';
import { BADGE_LABEL_MAX_CHARS, BADGE_STYLES } from '../../../render/badge.js';
import { EMBED_THEMES, EMBED_VARIANTS } from '../../../render/embed.js';
import { STATUSPAGE_PATHS, type StatuspageEndpoint } from '../../../render/statuspage.js';
import { STATUSPAGE_PARTS, STATUSPAGE_SCHEMAS } from '../../../render/statuspage-schema.js';
import { LIVE_CLOSE, LIVE_LIMITS } from '../../../services/live/limits.js';
import { liveMessageSchema } from '../../../services/live/messages.js';
import type { App } from '../../env.js';
import { ASSET_CONTENT_SECURITY_POLICY } from './serve-asset.js';
import { registerStatusPath } from './status-path.js';

/** Describes the public status endpoints in the OpenAPI document. */
export function documentPageRoutes(app: App): void {
  const common = {
    304: { description: 'Not modified (If-None-Match matched the ETag).' },
    401: { description: 'The page is password-protected: send `Authorization: Bearer <page password>`.' },
    404: { description: 'No page with this slug (application/problem+json).' },
    429: {
      description:
        'Too many wrong page passwords from this client address for this page in a minute (Retry-After; the password form for the HTML forms, application/problem+json for the others): none is checked until then.',
    },
  };
  registerStatusPath(app, {
    path: '/api/v1/status/{slug}',
    summary: 'The snapshot of a status page',
    description:
      'Overall state, components with uptime and live data, incidents, maintenance and player totals. Cached for 30 s (ETag, CORS).',
    responses: {
      200: { description: 'The snapshot.', content: { 'application/json': { schema: snapshotSchema } } },
      ...common,
    },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/status.json',
    summary: 'The snapshot of a status page (page-relative)',
    responses: {
      200: { description: 'The snapshot.', content: { 'application/json': { schema: snapshotSchema } } },
      ...common,
    },
  });
  // The forms people read speak the reader's language (docs/languages.md); they answer with Content-Language.
  const lang = z.string().optional().openapi({
    description:
      "The reader's language: en, de, fr, es, pt-BR, pl, ru or tr (matched loosely: de-AT is de). Without it, the page's `language`, else `Accept-Language` (then the answer has `Vary: Accept-Language`), else English.",
    example: 'de',
  });
  registerStatusPath(app, {
    path: '/s/{slug}/status.md',
    summary: 'The status page as Markdown, for people and language models',
    query: { lang },
    responses: { 200: { description: 'Markdown.', content: { 'text/markdown': { schema: z.string() } } }, ...common },
  });
  registerStatusPath(app, {
    path: '/s/{slug}',
    summary: 'The HTML status page (Markdown with Accept: text/markdown)',
    query: {
      lang,
      range: z.enum(CHART_RANGES).optional().openapi({
        description: "The window of the components' response-time and players charts: 24h (the default), 7d or 30d.",
      }),
    },
    responses: {
      200: {
        description: 'HTML, or Markdown when asked for.',
        content: { 'text/html': { schema: z.string() }, 'text/markdown': { schema: z.string() } },
      },
      ...common,
    },
  });
  documentForms(app, common, lang);
  documentStatuspageAndAssets(app, common);
  documentLiveStream(app, common);
}

type Common = Record<304 | 401 | 404 | 429, { description: string }>;
/** 30 s per snapshot version, said by every form's description. */
const CACHED = 'Cached for 30 s per snapshot version (ETag, If-None-Match → 304, CORS).';

/** The feed, the badge, the Open Graph image and the embed. */
function documentForms(app: App, common: Common, lang: z.ZodOptional<z.ZodString>): void {
  const cached = CACHED;
  registerStatusPath(app, {
    path: '/s/{slug}/feed.xml',
    summary: 'RSS 2.0 feed of incidents and maintenance',
    description: `One item per incident (active, and resolved in the last 14 days) and per active or upcoming maintenance window, newest first, each with a stable guid. The HTML page links it as rel="alternate". ${cached}`,
    query: { lang },
    responses: {
      200: { description: 'RSS 2.0.', content: { 'application/rss+xml': { schema: z.string() } } },
      ...common,
    },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/badge.svg',
    summary: 'Shields-style status badge',
    description: `The page's name and its overall state, coloured by state; with \`players\`, the players online (\`42/100 online\`). ${cached}`,
    query: {
      players: z
        .string()
        .optional()
        .openapi({ description: 'A flag (no value needed): show players online instead of the state.', example: '' }),
      label: z
        .string()
        .max(BADGE_LABEL_MAX_CHARS)
        .optional()
        .openapi({ description: "The left-hand text; the page's title by default." }),
      style: z.enum(BADGE_STYLES).optional().openapi({ description: 'A shields.io style; flat by default.' }),
    },
    responses: { 200: { description: 'SVG.', content: { 'image/svg+xml': { schema: z.string() } } }, ...common },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/og.png',
    summary: 'Open Graph image (1200×630 PNG)',
    description: `Title, overall state, components, players online and 30-day uptime, for link previews; the HTML page points og:image and twitter:image at it. Rendered once per snapshot version. ${cached}`,
    query: { lang },
    responses: {
      200: { description: 'PNG.', content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } } },
      ...common,
    },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/embed',
    summary: 'Embeddable widget (for an iframe)',
    description: `A self-contained widget that updates itself from the live stream: the overall line (state, name, overall label, players online, link to the page), the components and active incidents too, or one component. Any site may frame it (Content-Security-Policy: frame-ancestors *); it posts \`{ type: 'warden:embed:height', slug, height }\` to its parent window so the host can size the frame (docs/embed.md). Unknown options and values are ignored. ${cached}`,
    query: {
      variant: z.enum(EMBED_VARIANTS).optional().openapi({
        description:
          '`compact` (the default): the overall line; `full`: the components by group and the active incidents too.',
      }),
      component: z.string().optional().openapi({
        description:
          "One component's widget (its state, latency and players), by id or name (case ignored); `variant` is then ignored.",
        example: 'Survival',
      }),
      theme: z.enum(EMBED_THEMES).optional().openapi({
        description: "Force a theme; `auto` (the default) follows the reader's light or dark preference.",
      }),
      lang,
    },
    responses: {
      200: { description: 'HTML.', content: { 'text/html': { schema: z.string() } } },
      ...common,
      404: {
        description:
          'No page with this slug, or (`?component=`) no such component on the page: an HTML document saying so, inside the frame.',
      },
    },
  });
}

/** The Statuspage-compatible answers, the uploaded images and the custom stylesheet. */
function documentStatuspageAndAssets(app: App, common: Common): void {
  const cached = CACHED;
  const statuspage: Record<StatuspageEndpoint, string> = {
    summary: 'Statuspage-compatible summary: page, status indicator, components, unresolved incidents, maintenance',
    status: 'Statuspage-compatible status indicator of the page',
    components: 'Statuspage-compatible components (groups as components with `group: true`)',
    incidents: 'Statuspage-compatible incidents: unresolved, and resolved in the last 14 days',
    unresolved: 'Statuspage-compatible unresolved incidents',
    maintenances: 'Statuspage-compatible scheduled maintenances: in progress and upcoming',
    upcoming: 'Statuspage-compatible upcoming scheduled maintenances',
    active: 'Statuspage-compatible scheduled maintenances in progress',
  };
  // Named once, referenced by the eight answers.
  for (const [name, schema] of Object.entries(STATUSPAGE_PARTS)) app.openAPIRegistry.register(name, schema);
  for (const [endpoint, summary] of Object.entries(statuspage) as [StatuspageEndpoint, string][])
    registerStatusPath(app, {
      path: `/s/{slug}${STATUSPAGE_PATHS[endpoint]}`,
      summary,
      description: `Atlassian Statuspage's public API v2 answer, for widgets and bots written for it; also at \`${STATUSPAGE_PATHS[endpoint]}\` on the page's custom domain. States are mapped as docs/statuspage-compat.md says. ${cached}`,
      responses: {
        200: { description: 'JSON.', content: { 'application/json': { schema: STATUSPAGE_SCHEMAS[endpoint] } } },
        ...common,
      },
    });
  const immutable =
    'With `?v=` naming the current version (as the page links it): `Cache-Control: public, max-age=31536000, immutable`; otherwise the current bytes, cached for 30 s. ETag, nosniff, CORS; a protected page needs its password, like its forms.';
  registerStatusPath(app, {
    path: '/s/{slug}/assets/{name}',
    summary: 'A page’s uploaded logo or favicon',
    description: `The image uploaded with PUT /api/v1/pages/{slug}/assets/{name}, with the type recognised from its bytes, sandboxed (\`Content-Security-Policy: ${ASSET_CONTENT_SECURITY_POLICY}\`); also at \`/assets/{name}\` on the page's custom domain. ${immutable}`,
    params: { name: z.enum(PAGE_ASSET_NAMES).openapi({ param: { name: 'name', in: 'path' } }) },
    responses: {
      200: { description: 'The image.', content: { 'image/*': { schema: z.string().openapi({ format: 'binary' }) } } },
      ...common,
      404: { description: 'No such page, or it has no image of this name (application/problem+json).' },
    },
  });
  registerStatusPath(app, {
    path: '/s/{slug}/custom.css',
    summary: 'A page’s custom stylesheet',
    description: `The page's \`customCss\`, linked by its HTML page after the built-in styles (docs/branding.md); also at \`/custom.css\` on its custom domain. ${immutable}`,
    responses: {
      200: { description: 'CSS.', content: { 'text/css': { schema: z.string() } } },
      ...common,
      404: { description: 'No such page, or it has no stylesheet (application/problem+json).' },
    },
  });
}

/** WS /s/{slug}/live, described as its upgrade. */
function documentLiveStream(app: App, common: Common): void {
  app.openAPIRegistry.register('LiveMessage', liveMessageSchema);
  registerStatusPath(app, {
    path: '/s/{slug}/live',
    summary: 'Live stream of the page (WebSocket)',
    description: [
      'A WebSocket (OpenAPI cannot describe one: this entry documents the upgrade; the messages are the `LiveMessage` schema, and `x-websocket` below). Connect with `GET` and `Connection: Upgrade`, `Upgrade: websocket` (ws:// or wss://); on a custom domain the path is `/live`.',
      '',
      "The server sends text frames, each one JSON `LiveMessage` with `type` and `at` (epoch ms): first a `snapshot`, then `monitor.update`, `overall`, `totals`, `incident`, `maintenance` as the page changes (a change of the page's shape sends a new `snapshot`). Clients send nothing.",
      '',
      `The server pings every ${LIVE_LIMITS.pingIntervalMs / 1000} s and drops a client that has not answered the previous ping; a client that falls more than ${LIVE_LIMITS.maxBufferedBytes / 1024} KiB behind is disconnected. A password-protected page needs the cookie set by its login page, or \`Authorization: Bearer <page password>\`. A client address holds a limited number of streams at once (429 beyond), and the server as many as its file descriptors allow (503 beyond). See docs/live.md.`,
    ].join('\n'),
    responses: {
      101: { description: 'Switching Protocols: the stream is open.' },
      401: common[401],
      404: common[404],
      429: {
        description:
          'This client address holds all the streams it may, or too many wrong page passwords (application/problem+json, Retry-After).',
      },
      426: { description: 'A plain HTTP request: the stream needs a WebSocket upgrade (application/problem+json).' },
      503: {
        description:
          'The server is shutting down or has all the streams it takes (application/problem+json, Retry-After).',
      },
    },
    'x-websocket': {
      messages: { $ref: '#/components/schemas/LiveMessage' },
      closeCodes: {
        1001: 'server shutting down',
        1009: 'client sent a frame too large',
        [LIVE_CLOSE.accessChanged]: "the page's password changed",
        [LIVE_CLOSE.pageGone]: 'the page was deleted',
      },
    },
  });
}
