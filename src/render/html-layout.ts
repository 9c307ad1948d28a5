// The shared look of every HTML page Warden serves: escaping, the document shell, the stylesheet, state icons and the CSP.
import { createHash } from 'node:crypto';
import type { PageState } from '../domain/snapshot.js';
import { PLAYERS_PAGE_CSS } from './html-players-css.js';
import { type Translator, translator } from './i18n/index.js';
import { JOIN_CSS } from './join-styles.js';
import { PAGE_SCRIPT } from './page-script.js';
import { isoTime } from './page-wording.js';
import { SUBSCRIBE_CSS } from './subscribe-styles.js';

export interface HtmlRendering {
  contentType: 'text/html; charset=utf-8';
  body: string;
  /** The document's own policy, when it is not CONTENT_SECURITY_POLICY (a branded page's): routes send it as the header. */
  contentSecurityPolicy?: string;
}

/** Text made safe for an element's content or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export interface DocumentParts {
  title: string;
  /** Extra, already escaped, elements for <head>. */
  head?: string;
  /** Already escaped attributes for <html>, e.g. ` data-refresh="60"`. */
  htmlAttributes?: string;
  /** Already escaped body content (header, main, footer). */
  body: string;
  /** Include the page script (local times, self-refresh). */
  script?: boolean;
  /** The state that colours the favicon, so a tab shows an outage at a glance. */
  faviconState?: PageState;
  /** A page's own favicon (its branding), instead of the state's. */
  favicon?: string;
  /** Already escaped elements after the built-in stylesheet, so they win over it (a page's accent, its custom stylesheet). */
  afterStyles?: string;
  /** The document's policy when it is not CONTENT_SECURITY_POLICY (a branded page's, see html-branding.ts). */
  contentSecurityPolicy?: string;
  /** The reader's language (<html lang>, the skip link); English when left out. */
  i18n?: Translator;
}

/** A complete HTML document with the shared stylesheet and, when asked, the page script. */
export function htmlDocument(parts: DocumentParts): string {
  const i18n = parts.i18n ?? translator();
  return (
    '<!doctype html>\n' +
    `<html lang="${i18n.language}"${parts.htmlAttributes ?? ''}>\n<head>\n` +
    '<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(parts.contentSecurityPolicy ?? CONTENT_SECURITY_POLICY)}">\n` +
    '<meta name="color-scheme" content="light dark">\n' +
    '<meta name="theme-color" content="#f6f8fa" media="(prefers-color-scheme: light)">\n' +
    '<meta name="theme-color" content="#0d1117" media="(prefers-color-scheme: dark)">\n' +
    `<title>${escapeHtml(parts.title)}</title>\n` +
    `<link rel="icon" href="${escapeHtml(parts.favicon ?? faviconUrl(parts.faviconState ?? 'operational'))}">\n` +
    (parts.head ?? '') +
    `<style>${PAGE_CSS}</style>\n${parts.afterStyles ?? ''}</head>\n<body>\n` +
    `<a class="skip" href="#main">${escapeHtml(i18n.t('page.skip'))}</a>\n` +
    parts.body +
    (parts.script ? `\n<script>${PAGE_SCRIPT}</script>` : '') +
    '\n</body>\n</html>\n'
  );
}

/**
 * A time in the page's time zone and the reader's language, readable without script; the page script adds the
 * reader's own local time as its title (and makes a `data-relative` one "3 minutes ago" while recent).
 */
export function timeHtml(i18n: Translator, ms: number, attributes = ''): string {
  return `<time datetime="${isoTime(ms)}" data-local${attributes}>${escapeHtml(i18n.dateTime(ms))}</time>`;
}

/** The shape of each state; its colour comes from the surrounding tone class, its meaning from the text beside it. */
export function stateIcon(state: PageState): string {
  return `<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">${ICON_SHAPES[state]}</svg>`;
}

/** Each state has its own outline (circle, triangle, octagon, square, ring) so the icon reads without colour. */
const ICON_SHAPES: Record<PageState, string> = {
  operational: '<circle cx="10" cy="10" r="10"/><path class="g" d="M5.8 10.3l2.8 2.8 5.6-6"/>',
  degraded:
    '<path d="M10 1.2c.6 0 1.1.3 1.4.8l8 14c.6 1.1-.2 2.4-1.4 2.4H2c-1.2 0-2-1.3-1.4-2.4l8-14c.3-.5.8-.8 1.4-.8z"/><path class="g" d="M10 7v4.6M10 14.8v.1"/>',
  down: '<path d="M6 0h8l6 6v8l-6 6H6l-6-6V6z"/><path class="g" d="M7 7l6 6M13 7l-6 6"/>',
  maintenance: '<rect width="20" height="20" rx="5"/><path class="g" d="M10 5.5V10l3 2"/>',
  unknown:
    '<circle cx="10" cy="10" r="10"/><path class="g" d="M7.7 7.7a2.4 2.4 0 1 1 3.3 2.2c-.6.3-1 .8-1 1.4v.5M10 14.8v.1"/>',
};

/** Each state's colour outside the page's stylesheet (favicon, badge, Open Graph image): the light theme's, AA with white text. */
export const STATE_COLOUR: Record<PageState, string> = {
  operational: '#1a7f37',
  degraded: '#b45309',
  down: '#cf222e',
  maintenance: '#0969da',
  unknown: '#5f6872',
};

function faviconUrl(state: PageState): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" fill="${STATE_COLOUR[state]}">` +
    ICON_SHAPES[state].replace(
      /class="g"/g,
      'fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"',
    ) +
    '</svg>';
  return 'data:image/svg+xml,' + encodeURIComponent(svg);
}

/*
 * Colours are GitHub Primer's accessible pairs, checked for WCAG AA (≥ 4.5:1 for text, ≥ 3:1 for bars) on both the
 * page background and the cards, in light and dark. Uptime bars use one-letter classes (o, g, d, m, u for
 * operational, degraded, down, maintenance, no data) because a large page carries thousands of them.
 */
export const PAGE_CSS = `
:root{color-scheme:light dark;--bg:#f6f8fa;--surface:#fff;--text:#1f2328;--muted:#59636e;--border:#d1d9e0;--divider:#e6eaef;--link:#0969da;
--ok:#1a7f37;--warn:#b45309;--bad:#cf222e;--maint:#0969da;--unknown:#5f6872;
--ok-bg:#dafbe1;--warn-bg:#fff4e5;--bad-bg:#ffebe9;--maint-bg:#ddf4ff;--unknown-bg:#eef1f4;
--bar-o:#2da44e;--bar-g:#d97706;--bar-d:#cf222e;--bar-m:#0969da;--bar-u:#d1d9e0;--tone:var(--unknown);--tone-bg:var(--unknown-bg);
--c50:#0969da;--c95:#6e7781;--cavg:#8250df;--cband:rgba(130,80,223,.2)}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--surface:#151b23;--text:#e6edf3;--muted:#9198a1;--border:#3d444d;--divider:#262c36;--link:#4493f8;
--ok:#3fb950;--warn:#d29922;--bad:#f85149;--maint:#4493f8;--unknown:#9198a1;
--ok-bg:#12261b;--warn-bg:#2a2110;--bad-bg:#2d1417;--maint-bg:#0f2038;--unknown-bg:#1d232b;
--bar-o:#2ea043;--bar-g:#d29922;--bar-d:#f85149;--bar-m:#4493f8;--bar-u:#3d444d;
--c50:#4493f8;--c95:#9198a1;--cavg:#a371f7;--cband:rgba(163,113,247,.28)}}
.t-operational{--tone:var(--ok);--tone-bg:var(--ok-bg)}.t-degraded{--tone:var(--warn);--tone-bg:var(--warn-bg)}
.t-down{--tone:var(--bad);--tone-bg:var(--bad-bg)}.t-maintenance{--tone:var(--maint);--tone-bg:var(--maint-bg)}
.t-unknown{--tone:var(--unknown);--tone-bg:var(--unknown-bg)}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%;background:var(--bg)}
body{display:flex;flex-direction:column;min-height:100vh;margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;overflow-wrap:anywhere;-webkit-font-smoothing:antialiased}
h1,h2,h3{line-height:1.25;letter-spacing:-.01em}
a{color:var(--link);text-underline-offset:.15em}
:focus-visible{outline:3px solid var(--link);outline-offset:2px;border-radius:4px}
.skip{position:absolute;left:-9999px;top:8px;z-index:10;padding:8px 12px;background:var(--surface);color:var(--link);border-radius:8px}
.skip:focus{left:16px}
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.wrap{max-width:880px;margin:0 auto;padding:0 16px}
.site-head{background:var(--surface);border-bottom:1px solid var(--border)}
.site-head .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:12px 24px;padding-top:20px;padding-bottom:20px}
.site-head h1{font-size:1.5rem;margin:0}
.site-head p{margin:4px 0 0;color:var(--muted)}
.feeds{display:flex;flex-wrap:wrap;gap:8px}
.feeds a{font-size:.8125rem;font-weight:500;padding:4px 12px;border:1px solid var(--border);border-radius:999px;color:var(--text);text-decoration:none;background:var(--bg)}
.feeds a:hover{border-color:var(--muted)}
.head-end{display:flex;flex-wrap:wrap;align-items:center;gap:8px}
.lang{position:relative;font-size:.8125rem}
.lang summary{cursor:pointer;list-style:none;padding:4px 12px;border:1px solid var(--border);border-radius:999px;background:var(--bg);font-weight:500}
.lang summary::-webkit-details-marker{display:none}
.lang summary::after{content:" ▾";color:var(--muted)}
.lang ul{position:absolute;right:0;z-index:5;min-width:12rem;margin:6px 0 0;padding:6px 0;list-style:none;background:var(--surface);border:1px solid var(--border);border-radius:8px;box-shadow:0 6px 16px rgba(0,0,0,.12)}
.lang a{display:block;padding:6px 14px;color:var(--text);text-decoration:none}
.lang a:hover{background:var(--bg)}
.lang a[aria-current]{font-weight:650}
main{display:block;flex:1 0 auto;padding:24px 0 48px}
.banner{display:flex;align-items:center;gap:16px;padding:20px 24px;border-radius:12px;background:var(--tone);color:#fff;--icon-fg:var(--tone)}
.banner .icon{flex:none;width:40px;height:40px;fill:#fff}
.banner-label{margin:0;font-size:1.25rem;font-weight:650}
.banner-meta{margin:2px 0 0;font-size:.875rem}
@media (prefers-color-scheme:dark){.banner{background:var(--tone-bg);color:var(--text);border:1px solid var(--tone);--icon-fg:var(--tone-bg)}.banner .icon{fill:var(--tone)}}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:16px 0 0}
.stat{margin:0;padding:12px 16px;background:var(--surface);border:1px solid var(--border);border-radius:12px}
.stat dt{font-size:.8125rem;color:var(--muted)}
.stat dd{margin:0;font-size:1.25rem;font-weight:650;font-variant-numeric:tabular-nums}
.block{margin-top:32px}
.block>h2{font-size:1.125rem;margin:0 0 12px}
.block-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:4px 16px;margin:0 0 12px}
.block-head h2{font-size:1.125rem;margin:0}
.block-head p{margin:0;font-size:.8125rem;color:var(--muted)}
.card{background:var(--surface);border:1px solid var(--border);border-radius:12px;overflow:hidden}
.group+.group{margin-top:20px}
.group h3{margin:0 0 8px;font-size:.8125rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.list{list-style:none;margin:0;padding:0}
.component{padding:16px 20px;border-top:1px solid var(--divider)}
.component:first-child{border-top:0}
.component-head{display:flex;align-items:flex-start;justify-content:space-between;gap:2px 12px;flex-wrap:wrap}
.component-name{flex:1 1 12rem;min-width:0;margin:0;font-weight:600}
.component-status{flex:0 1 auto;display:flex;flex-wrap:wrap;align-items:center;justify-content:flex-end;gap:0 8px;margin:0;font-size:.875rem}
.component-desc{display:block;font-size:.875rem;font-weight:400;color:var(--muted)}
.state{display:inline-flex;align-items:center;gap:6px;font-weight:600;white-space:nowrap;color:var(--tone);--icon-fg:var(--surface)}
.state .icon{flex:none;width:16px;height:16px;fill:var(--tone)}
.icon .g{fill:none;stroke:var(--icon-fg);stroke-width:2.2;stroke-linecap:round;stroke-linejoin:round}
.since{color:var(--muted)}
.facts{display:flex;flex-wrap:wrap;gap:2px 16px;margin:4px 0 0;padding:0;list-style:none;font-size:.875rem;color:var(--muted)}
.facts b{font-weight:600;color:var(--text);font-variant-numeric:tabular-nums}
.motd{margin:4px 0 0;font-size:.875rem;color:var(--muted);white-space:pre-line}
.strip{display:flex;gap:2px;height:32px;margin-top:12px}
.strip span{flex:1 1 0;min-width:0;border-radius:2px;background:var(--bar-u)}
.strip span:hover{opacity:.65}
.strip .o{background:var(--bar-o)}.strip .g{background:var(--bar-g)}.strip .d{background:var(--bar-d)}.strip .m{background:var(--bar-m)}
.strip-legend{display:flex;justify-content:space-between;gap:8px;margin-top:6px;font-size:.75rem;color:var(--muted)}
.strip-legend .mid{flex:1;display:flex;align-items:center;gap:8px;text-align:center;white-space:nowrap}
.strip-legend .mid::before,.strip-legend .mid::after{content:"";flex:1;border-top:1px solid var(--divider)}
.days-30{display:none}
.check-note{margin:4px 0 0;font-size:.875rem;color:var(--muted)}
.strip[tabindex]{cursor:pointer}
.strip .on{box-shadow:0 0 0 2px var(--text)}
.day-pop{position:absolute;z-index:20;max-width:min(20rem,calc(100vw - 16px));padding:8px 12px;background:var(--surface);color:var(--text);border:1px solid var(--border);border-radius:8px;box-shadow:0 6px 16px rgba(0,0,0,.15);font-size:.8125rem;pointer-events:none}
.day-pop p{margin:0}
.day-pop p:first-child{font-weight:600}
.ranges{font-size:.8125rem;color:var(--muted)}
.ranges a{padding:2px 4px}
.ranges a[aria-current]{font-weight:650;color:var(--text);text-decoration:none}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:12px 24px;margin-top:14px}
.chart-key{display:flex;flex-wrap:wrap;align-items:center;gap:0 12px;margin:0 0 4px;font-size:.75rem;color:var(--muted)}
.chart-title{font-weight:600;color:var(--text)}
.k50::before,.k95::before,.kavg::before,.kband::before{content:"";display:inline-block;width:12px;height:3px;margin-right:4px;vertical-align:middle;border-radius:2px;background:var(--c50)}
.k95::before{background:var(--c95)}.kavg::before{background:var(--cavg)}.kband::before{height:9px;background:var(--cband)}
.plot{position:relative;height:56px;border-top:1px dashed var(--divider);border-bottom:1px solid var(--border)}
.plot svg{display:block;width:100%;height:100%;overflow:visible}
.plot path{fill:none;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;vector-effect:non-scaling-stroke}
.kloc::before{content:"";display:inline-block;width:12px;height:3px;margin-right:4px;vertical-align:middle;border-radius:2px}.plot .loc0{stroke:#0969da}.kloc.loc0::before{background:#0969da}.plot .loc1{stroke:#bf3989}.kloc.loc1::before{background:#bf3989}.plot .loc2{stroke:#1a7f37}.kloc.loc2::before{background:#1a7f37}.plot .loc3{stroke:#9a6700}.kloc.loc3::before{background:#9a6700}.plot .loc4{stroke:#6e7781}.kloc.loc4::before{background:#6e7781}
.plot .l50{stroke:var(--c50)}.plot .l95{stroke:var(--c95);stroke-width:1.5}.plot .lavg{stroke:var(--cavg)}.plot .band{fill:var(--cband);stroke:none}
.ymax{position:absolute;left:0;top:2px;font-size:.6875rem;line-height:1;color:var(--muted);background:var(--surface);padding-right:4px}
@media (max-width:600px){.head-end{flex:1 1 100%}.lang{margin-left:auto}.strip span:nth-last-child(n+31){display:none}.days-90{display:none}.days-30{display:inline}.component{padding:14px 16px}.component-status{justify-content:flex-start}.banner{padding:16px}.banner .icon{width:32px;height:32px}}
.empty{margin:0;padding:20px;color:var(--muted);text-align:center}
.changes{list-style:none;margin:0;padding:12px 20px}.changes li{padding:4px 0}.changes .was,.changes time{color:var(--muted);font-size:.8125rem}
.incident{position:relative;padding:16px 20px 16px 24px;border-top:1px solid var(--divider)}
.incident:first-child{border-top:0}
.incident::before{content:"";position:absolute;left:0;top:0;bottom:0;width:4px;background:var(--tone)}
.incident h3{margin:0;font-size:1rem}
.incident-meta{display:block;margin:4px 0 0;font-size:.875rem;color:var(--muted)}
.pill{display:inline-flex;align-items:center;gap:4px;padding:0 8px;border-radius:999px;font-size:.75rem;font-weight:600;line-height:1.6;background:var(--tone-bg);color:var(--text);border:1px solid var(--tone)}
.timeline{list-style:none;margin:12px 0 0;padding:0}
.timeline li{position:relative;margin-left:5px;padding:0 0 12px 20px;border-left:2px solid var(--divider)}
.timeline li:last-child{padding-bottom:0;border-left-color:transparent}
.timeline li::before{content:"";position:absolute;left:-7px;top:5px;width:12px;height:12px;border-radius:50%;background:var(--surface);border:2px solid var(--muted)}
.timeline li:first-child::before{background:var(--tone);border-color:var(--tone)}
.update-head{margin:0;font-size:.875rem;color:var(--muted)}
.update-head strong{color:var(--text)}
.update-msg{margin:2px 0 0;white-space:pre-line}
details.incident>summary{cursor:pointer;list-style:none}
details.incident>summary::-webkit-details-marker{display:none}
details.incident>summary h3::after{content:" +";color:var(--muted);font-weight:400}
details.incident[open]>summary h3::after{content:" −"}
.site-foot{border-top:1px solid var(--border);background:var(--surface);font-size:.875rem;color:var(--muted)}
.site-foot .wrap{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px 24px;padding-top:20px;padding-bottom:20px}
.site-foot p{margin:0}
.narrow{max-width:440px;margin:48px auto;padding:24px}
.narrow h1{margin:0 0 8px;font-size:1.375rem}
.narrow p{margin:0 0 16px;color:var(--muted)}
.field{display:grid;gap:6px;margin:0 0 16px}
.field label{font-weight:600}
.field input{width:100%;font:inherit;padding:10px 12px;border:1px solid var(--muted);border-radius:8px;background:var(--bg);color:var(--text)}
.narrow .error{display:flex;gap:8px;align-items:center;margin:0 0 16px;padding:10px 12px;border-radius:8px;background:var(--bad-bg);border:1px solid var(--bad);color:var(--text);--icon-fg:var(--bad-bg)}
.error .icon{flex:none;width:18px;height:18px;fill:var(--bad)}
.subscribe-area{padding:0 0 48px}
.subscribe-area h2{font-size:1.125rem;margin:0 0 12px}
.subscribe{padding:16px 20px}
.subscribe p{margin:0 0 12px;color:var(--muted)}
.subscribe details{margin-top:16px}
.subscribe summary{cursor:pointer;font-weight:600}
.subscribe code{overflow-wrap:anywhere}
.button{display:inline-block;font:inherit;font-weight:600;padding:10px 18px;border:0;border-radius:8px;background:var(--link);color:var(--surface);cursor:pointer;text-decoration:none}
@media (prefers-color-scheme:dark){.button{color:#0d1117}}
`
  .trim()
  .replace(/\n/g, '')
  .concat(JOIN_CSS)
  .concat(PLAYERS_PAGE_CSS)
  .concat(SUBSCRIBE_CSS);

/**
 * The policy every Warden HTML page can be served with: nothing from other hosts, and only this stylesheet and
 * this script (by hash) may run, so even text that slipped past escaping could not execute. It is also set by a
 * <meta> in each document; routes may send it as a header too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src '${sha256(PAGE_CSS)}'`,
  `script-src '${sha256(PAGE_SCRIPT)}'`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The CSP source that allows exactly this inline script or stylesheet. */
export function cspHash(text: string): string {
  return sha256(text);
}

function sha256(text: string): string {
  return 'sha256-' + createHash('sha256').update(text, 'utf8').digest('base64');
}
