// The embed form of a page: a compact widget for an <iframe> on any site (state dot, name, overall label, players, link), live.
import type { Snapshot } from '../domain/snapshot.js';
import { cspHash, escapeHtml } from './html-layout.js';
import { LIVE_CLIENT_SCRIPT } from './live-client-script.js';
import { formatCount, plainText } from './page-wording.js';

export interface EmbedRendering {
  contentType: 'text/html; charset=utf-8';
  body: string;
}

export interface EmbedOptions {
  /** Where the page's live stream is, on this host. */
  livePath: string;
  /** Where the JSON snapshot is, polled while the stream is down. */
  jsonPath: string;
  /** Force a theme; otherwise the reader's light or dark preference. */
  theme?: string | undefined;
}

export const EMBED_THEMES = ['light', 'dark'] as const;

/** Query options, normalized: `theme=light|dark` (anything else: follow the reader's preference). */
export function embedOptions(query: URLSearchParams): Record<string, string> {
  const theme = query.get('theme');
  return theme !== null && (EMBED_THEMES as readonly string[]).includes(theme) ? { theme } : {};
}

/** The widget as one self-contained document: inline style and script (allowed by hash), nothing from another host. */
export function renderEmbed(snapshot: Snapshot, options: EmbedOptions): EmbedRendering {
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const { state, label } = snapshot.overall;
  const theme = options.theme === 'light' || options.theme === 'dark' ? options.theme : 'auto';
  const players = playersText(snapshot.totals.players, snapshot.totals.maxPlayers);
  const body =
    '<!doctype html>\n' +
    `<html lang="en" data-theme="${theme}" data-live="${escapeHtml(options.livePath)}" data-json="${escapeHtml(options.jsonPath)}">\n<head>\n` +
    '<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(EMBED_DOCUMENT_POLICY)}">\n` +
    '<meta name="robots" content="noindex">\n' +
    `<title>${escapeHtml(`${title} status`)}</title>\n` +
    `<style>${EMBED_CSS}</style>\n</head>\n<body>\n` +
    `<div class="widget t-${state}" data-testid="embed" data-state="${state}">` +
    '<span class="dot" aria-hidden="true"></span>' +
    '<div class="text">' +
    `<p class="name"><a class="open" href="${escapeHtml(snapshot.page.url)}" target="_blank" rel="noopener" data-testid="embed-link" aria-label="${escapeHtml(`${title}: full status (opens in a new tab)`)}">${escapeHtml(title)}<span class="arrow" aria-hidden="true">↗</span></a></p>` +
    `<p class="status"><span class="label" data-testid="embed-label" aria-live="polite">${escapeHtml(plainText(label))}</span></p>` +
    '</div>' +
    `<p class="players" data-testid="embed-players"${players ? '' : ' hidden'}><b class="count">${escapeHtml(players)}</b> <span>online</span></p>` +
    '</div>\n' +
    `<script>${EMBED_SCRIPT}</script>\n</body>\n</html>\n`;
  return { contentType: 'text/html; charset=utf-8', body };
}

/** "150 / 800", "9", or '' when the page reports no players (the widget adds "online"). */
function playersText(players: number | null, maxPlayers: number | null): string {
  if (players === null) return '';
  return `${formatCount(players)}${maxPlayers === null ? '' : ` / ${formatCount(maxPlayers)}`}`;
}

/*
 * Colours are the HTML page's (Primer, AA in light and dark). The card has its own background, so it reads on any
 * host page, and fills the frame. The document declares no color-scheme: a frame whose scheme differs from its host
 * page's gets an opaque canvas, which would show as a box around the card's rounded corners.
 */
const LIGHT = '--surface:#fff;--text:#1f2328;--muted:#59636e;--border:#d1d9e0;--link:#0969da;--ok:#1a7f37;--warn:#b45309;--bad:#cf222e;--maint:#0969da;--unknown:#5f6872';
const DARK = '--surface:#151b23;--text:#e6edf3;--muted:#9198a1;--border:#3d444d;--link:#4493f8;--ok:#3fb950;--warn:#d29922;--bad:#f85149;--maint:#4493f8;--unknown:#9198a1';

export const EMBED_CSS = [
  `:root{${LIGHT}}`,
  `@media (prefers-color-scheme:dark){:root[data-theme=auto]{${DARK}}}`,
  `:root[data-theme=dark]{${DARK}}`,
  'html,body{margin:0;padding:0;background:transparent}',
  '*{box-sizing:border-box}',
  'body{font:14px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;color:var(--text);-webkit-font-smoothing:antialiased}',
  '.widget{display:flex;align-items:center;gap:12px;min-height:100vh;padding:8px 14px;background:var(--surface);border:1px solid var(--border);border-radius:10px;overflow:hidden}',
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
].join('');

/*
 * Plain ES2017, hashed into the policy. Follows the live stream: `snapshot` and `overall` set the state and label,
 * `totals` the players; while the stream is down it polls the JSON snapshot every minute.
 */
export const EMBED_SCRIPT = `(function () {
  var root = document.documentElement;
  var widget = document.querySelector('.widget');
  var label = document.querySelector('.label');
  var players = document.querySelector('.players');
  var count = document.querySelector('.players .count');
  var connected = false;
  function showOverall(overall) {
    if (!overall || !widget) return;
    widget.className = 'widget t-' + overall.state;
    widget.setAttribute('data-state', overall.state);
    if (label.textContent !== overall.label) label.textContent = overall.label;
  }
  function digits(n) {
    return String(Math.round(n)).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  }
  function showTotals(totals) {
    if (!totals || !players || !count) return;
    var text = totals.players === null ? '' : digits(totals.players) + (totals.maxPlayers === null ? '' : ' / ' + digits(totals.maxPlayers));
    count.textContent = text;
    players.hidden = text === '';
  }
  function onMessage(message) {
    if (message.type === 'snapshot' && message.snapshot) {
      showOverall(message.snapshot.overall);
      showTotals(message.snapshot.totals);
    } else if (message.type === 'overall') {
      showOverall(message);
    } else if (message.type === 'totals') {
      showTotals(message);
    }
  }
  function poll() {
    if (connected || !window.fetch) return;
    fetch(root.getAttribute('data-json'), { cache: 'no-cache' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (snapshot) {
        showOverall(snapshot.overall);
        showTotals(snapshot.totals);
      })
      .catch(function () {});
  }
  setInterval(poll, 60000);
  live(root.getAttribute('data-live'), onMessage, function (up) {
    connected = up;
  });
  ${LIVE_CLIENT_SCRIPT}
})();`;

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

