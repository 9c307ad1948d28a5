// The embed form of a page: a widget for an <iframe> on any site, live: the overall state line (compact), the
// components and active incidents too (full), or one component; it tells its host page its height (docs/embed.md).
import type { Snapshot } from '../domain/snapshot.js';
import { EMBED_SCRIPT } from './embed-script.js';
import { componentWidgetHtml, EMBED_VIEWS_CSS, findComponent, fullPartsHtml } from './embed-views.js';
import { brandedEmbed } from './html-branding.js';
import { cspHash, escapeHtml } from './html-layout.js';
import { type Translator, translator } from './i18n/index.js';
import { countOfText, overallLabel } from './i18n/wording.js';
import { JOIN_CSS } from './join-styles.js';
import { plainText } from './page-wording.js';

export { EMBED_SCRIPT } from './embed-script.js';

export interface EmbedRendering {
  contentType: 'text/html; charset=utf-8';
  body: string;
  /** 404: the widget of a component the page does not have (it says so, inside the frame). */
  status?: 404;
  /** A branded page's own policy (its accent's style, its logo's host); EMBED_DOCUMENT_POLICY when absent. */
  contentSecurityPolicy?: string;
}

export interface EmbedOptions {
  /** Where the page's live stream is, on this host. */
  livePath: string;
  /** Where the JSON snapshot is, polled while the stream is down. */
  jsonPath: string;
  /** Force a theme; otherwise the reader's light or dark preference. */
  theme?: string | undefined;
  /** Where the page's own images are (`/s/{slug}`, or '' on its custom domain): an uploaded logo is linked under it. */
  basePath?: string;
  /** `full`: the components and active incidents under the overall line; otherwise the compact line alone. */
  variant?: string | undefined;
  /** One component's widget, by id or name ('' for one the page does not have); the variant is then ignored. */
  component?: string | undefined;
  /** The reader's language, dates in the page's time zone; the page's own language (else English) when left out. */
  i18n?: Translator;
}

/** `auto` (the default) follows the reader's prefers-color-scheme. */
export const EMBED_THEMES = ['light', 'dark', 'auto'] as const;
/** `compact` (the default) is the overall line alone. */
export const EMBED_VARIANTS = ['compact', 'full'] as const;
/** A longer `?component=` names no component (names and ids are shorter): it is not kept, as a cache key, whole. */
export const EMBED_COMPONENT_MAX_CHARS = 200;

/**
 * Query options, normalized so that few option sets (each a cached rendering) exist: `theme=light|dark`, and
 * `component=<id or name>` or else `variant=full`. Defaults (auto, compact), unknown values and other parameters are
 * dropped; embedCanonicalOptions then turns a component's name into its id.
 */
export function embedOptions(query: URLSearchParams): Record<string, string> {
  const options: Record<string, string> = {};
  const theme = query.get('theme');
  if (theme === 'light' || theme === 'dark') options.theme = theme;
  const component = query.get('component')?.trim();
  if (component) options.component = component.length > EMBED_COMPONENT_MAX_CHARS ? '' : component;
  else if (query.get('variant') === 'full') options.variant = 'full';
  return options;
}

/**
 * The options against the page's snapshot: a component named by name becomes its id, and one the page lacks becomes ''
 * (all of them one rendering), so a page's embeds are at most (2 + components + 1) × 3 themes renderings.
 */
export function embedCanonicalOptions(snapshot: Snapshot, options: Record<string, string>): Record<string, string> {
  if (options.component === undefined) return options;
  const id = findComponent(snapshot, options.component)?.id ?? '';
  return id === options.component ? options : { ...options, component: id };
}

/** The widget as one self-contained document: inline style and script (allowed by hash), nothing from another host. */
export function renderEmbed(snapshot: Snapshot, options: EmbedOptions): EmbedRendering {
  const t = options.i18n ?? translator(snapshot.page.language ?? undefined, snapshot.page.timeZone);
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const theme = options.theme === 'light' || options.theme === 'dark' ? options.theme : 'auto';
  const one = options.component === undefined ? undefined : { component: findComponent(snapshot, options.component) };
  const variant = one ? 'component' : options.variant === 'full' ? 'full' : 'compact';
  // The page's accent and logo (html-branding.ts), under a policy allowing exactly them.
  const brand = brandedEmbed(snapshot.page.branding, options.basePath ?? '', EMBED_DOCUMENT_POLICY);
  const widget = one
    ? componentWidgetHtml(snapshot, one.component, t)
    : overallWidgetHtml(snapshot, variant === 'full', t, brand?.logo ?? '');
  const attributes =
    ` data-theme="${theme}" data-variant="${variant}"` +
    (one ? ` data-component="${escapeHtml(one.component?.id ?? '')}"` : '') +
    ` data-slug="${escapeHtml(snapshot.page.slug)}" data-generated="${snapshot.generatedAt}"` +
    ` data-live="${escapeHtml(options.livePath)}" data-json="${escapeHtml(options.jsonPath)}"`;
  const body =
    '<!doctype html>\n' +
    `<html lang="${t.language}"${attributes}>\n<head>\n` +
    '<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(brand?.contentSecurityPolicy ?? EMBED_DOCUMENT_POLICY)}">\n` +
    '<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(t.t('common.statusOf', { title }))}</title>\n` +
    `<style>${EMBED_CSS}</style>\n` +
    (brand ? `<style>${brand.style}</style>\n` : '') +
    '</head>\n<body>\n' +
    widget +
    '\n' +
    `<script>${EMBED_SCRIPT}</script>\n</body>\n</html>\n`;
  return {
    contentType: 'text/html; charset=utf-8',
    body,
    ...(one && !one.component ? { status: 404 as const } : {}),
    ...(brand ? { contentSecurityPolicy: brand.contentSecurityPolicy } : {}),
  };
}

/** The page's overall line (state dot, name, label, players, link); the full widget adds its components and incidents. */
function overallWidgetHtml(snapshot: Snapshot, full: boolean, t: Translator, logo: string): string {
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const { state } = snapshot.overall;
  const label = overallLabel(t, plainText(snapshot.overall.label));
  const players =
    snapshot.totals.players === null ? '' : countOfText(t, snapshot.totals.players, snapshot.totals.maxPlayers);
  return (
    `<div class="widget t-${state}" data-testid="embed" data-state="${state}"><div class="content"><div class="row">` +
    '<span class="dot" aria-hidden="true"></span>' +
    logo +
    '<div class="text">' +
    `<p class="name"><a class="open" href="${escapeHtml(snapshot.page.url)}" target="_blank" rel="noopener" data-testid="embed-link" aria-label="${escapeHtml(t.t('embed.open', { title }))}">${escapeHtml(title)}<span class="arrow" aria-hidden="true">↗</span></a></p>` +
    `<p class="status"><span class="label" data-testid="embed-label" aria-live="polite">${escapeHtml(label)}</span></p>` +
    '</div>' +
    `<p class="players" data-testid="embed-players"${players ? '' : ' hidden'}><b class="count">${escapeHtml(players)}</b> <span>${escapeHtml(t.t('embed.online'))}</span></p>` +
    '</div>' +
    (full ? fullPartsHtml(snapshot, t) : '') +
    '</div></div>'
  );
}

/*
 * Colours are the HTML page's (Primer, AA in light and dark). The card has its own background, so it reads on any
 * host page, and fills the frame. The document declares no color-scheme: a frame whose scheme differs from its host
 * page's gets an opaque canvas, which would show as a box around the card's rounded corners.
 */
const LIGHT =
  '--surface:#fff;--text:#1f2328;--muted:#59636e;--border:#d1d9e0;--link:#0969da;--ok:#1a7f37;--warn:#b45309;--bad:#cf222e;--maint:#0969da;--unknown:#5f6872';
const DARK =
  '--surface:#151b23;--text:#e6edf3;--muted:#9198a1;--border:#3d444d;--link:#4493f8;--ok:#3fb950;--warn:#d29922;--bad:#f85149;--maint:#4493f8;--unknown:#9198a1';

export const EMBED_CSS = [
  `:root{${LIGHT}}`,
  `@media (prefers-color-scheme:dark){:root[data-theme=auto]{${DARK}}}`,
  `:root[data-theme=dark]{${DARK}}`,
  'html,body{margin:0;padding:0;background:transparent}',
  '*{box-sizing:border-box}',
  'body{font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;color:var(--text);-webkit-font-smoothing:antialiased}',
  // In a frame the card fills it (its content centred); the script tells the host the content's height, not the frame's.
  '.widget{display:flex;flex-direction:column;justify-content:center;min-height:100vh;padding:8px 14px;background:var(--surface);border:1px solid var(--border);border-radius:10px;overflow:hidden}',
  ':root[data-variant=full] .widget{justify-content:flex-start;padding:12px 14px}',
  '.row{display:flex;align-items:center;gap:12px}',
  '.t-operational{--tone:var(--ok)}.t-degraded{--tone:var(--warn)}.t-down{--tone:var(--bad)}.t-maintenance{--tone:var(--maint)}.t-unknown{--tone:var(--unknown)}',
  '.dot{flex:none;width:12px;height:12px;border-radius:50%;background:var(--tone);box-shadow:0 0 0 4px color-mix(in srgb,var(--tone) 22%,transparent)}',
  '.text{flex:1 1 auto;min-width:0}',
  '.name,.status{margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}',
  '.name{font-weight:650}',
  '.open{color:var(--text);text-decoration:none}',
  '.open:hover{color:var(--link);text-decoration:underline}',
  '.open:focus-visible{outline:2px solid var(--link);outline-offset:2px;border-radius:4px}',
  '.arrow{margin-left:4px;color:var(--link)}',
  '.status{font-size:13px}',
  '.label{color:var(--tone);font-weight:600}',
  '.players{flex:none;margin:0;display:flex;flex-direction:column;align-items:flex-end;line-height:1.2}',
  '.players[hidden]{display:none}',
  '.players b{font-size:15px;font-weight:650;font-variant-numeric:tabular-nums}',
  '.players span{font-size:12px;color:var(--muted)}',
  '@media (max-width:240px){.players{display:none}}',
  // Alone in a window (the script sets data-alone): a centred card of its natural size on a page-coloured canvas.
  ':root[data-alone]{background:#f6f8fa}',
  '@media (prefers-color-scheme:dark){:root[data-alone][data-theme=auto]{background:#0d1117}}',
  ':root[data-alone][data-theme=dark]{background:#0d1117}',
  ':root[data-alone] body{display:flex;align-items:center;justify-content:center;min-height:100vh;padding:24px}',
  ':root[data-alone] .widget{min-height:0;width:100%;max-width:440px;padding:16px 20px;box-shadow:0 8px 24px rgba(0,0,0,.12)}',
  ':root[data-alone][data-variant=full] .widget{max-width:560px}',
  EMBED_VIEWS_CSS,
  JOIN_CSS,
  '.join{font-size:13px;margin-top:8px}.join-go{min-height:28px;padding:2px 10px}',
].join('');

/** The policy inside the document: only this style and script, and connections to this host (the stream, the JSON). */
export const EMBED_DOCUMENT_POLICY = [
  "default-src 'none'",
  `style-src '${cspHash(EMBED_CSS)}'`,
  `script-src '${cspHash(EMBED_SCRIPT)}'`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The header policy adds what a <meta> cannot carry: any site may frame the widget. */
export const EMBED_CONTENT_SECURITY_POLICY = `${EMBED_DOCUMENT_POLICY}; frame-ancestors *`;
