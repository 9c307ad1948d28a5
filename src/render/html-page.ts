// The HTML form of a status page, the one players see: server-rendered, accessible, refreshing itself in place.
import type { Snapshot } from '../domain/snapshot.js';
import { componentsSectionHtml } from './html-components.js';
import { activeIncidentsHtml, maintenanceHtml, recentIncidentsHtml } from './html-incidents.js';
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon, timeHtml } from './html-layout.js';
import { subscribeHtml } from './html-subscribe.js';
import { OG_HEIGHT, OG_WIDTH } from './og-image.js';
import { formatCount, plainText, STATE_WORD } from './page-wording.js';

export interface HtmlPageOptions {
  /** Where the JSON form of this page is served, linked as an alternate. */
  jsonPath: string;
  markdownPath: string;
  feedPath?: string;
  /** Absolute URL of the Open Graph image, for link previews. */
  ogImageUrl?: string;
  /** Where the page's live stream is (a WebSocket path on this host); the page script follows it. */
  livePath?: string;
  /** How often the page refreshes itself; 0 turns refreshing off. */
  refreshSeconds: number;
  /** Where the subscribe form posts, when the page takes subscriptions (snapshot.page.subscribe). */
  subscribePath?: string;
}

/** The whole status page as HTML; the same snapshot and options always give the same bytes. */
export function renderHtmlPage(snapshot: Snapshot, options: HtmlPageOptions): HtmlRendering {
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const refresh = Math.max(0, Math.floor(options.refreshSeconds));
  const body =
    '<div id="announce" class="sr-only" aria-live="polite"></div>\n' +
    siteHeader(snapshot, title, options) +
    '\n<main id="main" tabindex="-1"><div class="wrap">' +
    banner(snapshot) +
    stats(snapshot) +
    activeIncidentsHtml(snapshot.activeIncidents) +
    maintenanceHtml(snapshot.maintenance) +
    componentsSectionHtml(snapshot.components) +
    recentIncidentsHtml(snapshot.recentIncidents) +
    '</div></main>\n' +
    // Outside <main>: the page script swaps <main> as the page changes, which would clear a half-typed address.
    subscribeHtml(snapshot, options.subscribePath) +
    siteFooter(snapshot, options);
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      // The state first, so a row of browser tabs shows which page has trouble.
      title: `${snapshot.overall.label} · ${title} status`,
      htmlAttributes:
        ` data-refresh="${refresh}" data-generated="${snapshot.generatedAt}"` +
        (options.livePath ? ` data-live="${escapeHtml(options.livePath)}"` : ''),
      head: head(snapshot, title, options, refresh),
      body,
      script: true,
      faviconState: snapshot.overall.state,
    }),
  };
}

function head(snapshot: Snapshot, title: string, options: HtmlPageOptions, refresh: number): string {
  const description = plainText(snapshot.page.description ?? '') || `Live status of ${title}.`;
  const ogDescription = `${snapshot.overall.label}. ${description}`;
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}">\n`;
  let html =
    meta('name', 'description', description) +
    `<link rel="canonical" href="${escapeHtml(snapshot.page.url)}">\n` +
    `<link rel="alternate" type="application/json" href="${escapeHtml(options.jsonPath)}" title="JSON">\n` +
    `<link rel="alternate" type="text/markdown" href="${escapeHtml(options.markdownPath)}" title="Markdown">\n`;
  if (options.feedPath)
    html += `<link rel="alternate" type="application/rss+xml" href="${escapeHtml(options.feedPath)}" title="${escapeHtml(`${title} incidents`)}">\n`;
  html +=
    meta('property', 'og:type', 'website') +
    meta('property', 'og:site_name', title) +
    meta('property', 'og:title', `${title} status`) +
    meta('property', 'og:description', ogDescription) +
    meta('property', 'og:url', snapshot.page.url);
  if (options.ogImageUrl)
    html +=
      meta('property', 'og:image', options.ogImageUrl) +
      meta('property', 'og:image:type', 'image/png') +
      meta('property', 'og:image:width', String(OG_WIDTH)) +
      meta('property', 'og:image:height', String(OG_HEIGHT)) +
      meta('property', 'og:image:alt', `${title}: ${snapshot.overall.label}`);
  html +=
    meta('name', 'twitter:card', options.ogImageUrl ? 'summary_large_image' : 'summary') +
    meta('name', 'twitter:title', `${title} status`) +
    meta('name', 'twitter:description', ogDescription);
  if (options.ogImageUrl) html += meta('name', 'twitter:image', options.ogImageUrl);
  // Without script the page still refreshes, by a full reload.
  if (refresh > 0) html += `<noscript><meta http-equiv="refresh" content="${refresh}"></noscript>\n`;
  return html;
}

function siteHeader(snapshot: Snapshot, title: string, options: HtmlPageOptions): string {
  const description = plainText(snapshot.page.description ?? '');
  const links = [
    options.feedPath ? `<a href="${escapeHtml(options.feedPath)}">RSS</a>` : '',
    `<a href="${escapeHtml(options.jsonPath)}">JSON</a>`,
    `<a href="${escapeHtml(options.markdownPath)}">Markdown</a>`,
    snapshot.page.subscribe && options.subscribePath ? '<a href="#subscribe">Subscribe</a>' : '',
  ].join('');
  return (
    '<header class="site-head"><div class="wrap"><div>' +
    `<h1>${escapeHtml(title)}</h1>` +
    (description ? `<p>${escapeHtml(description)}</p>` : '') +
    `</div><nav class="feeds" aria-label="Other formats">${links}</nav></div></header>`
  );
}

function banner(snapshot: Snapshot): string {
  const { state, label } = snapshot.overall;
  return (
    `<section class="banner t-${state}" data-testid="overall" data-state="${state}" aria-labelledby="overall-label">` +
    stateIcon(state) +
    '<div>' +
    `<h2 class="banner-label" id="overall-label"><span class="sr-only">Overall status: ${escapeHtml(STATE_WORD[state])}. </span>${escapeHtml(plainText(label))}</h2>` +
    `<p class="banner-meta">Last updated ${timeHtml(snapshot.generatedAt, ' data-relative')}</p>` +
    '</div></section>'
  );
}

function stats(snapshot: Snapshot): string {
  const { players, maxPlayers } = snapshot.totals;
  const items: string[] = [];
  if (players !== null) {
    const value = formatCount(players) + (maxPlayers === null ? '' : ` / ${formatCount(maxPlayers)}`);
    items.push(`<div class="stat"><dt>Players online</dt><dd>${value}</dd></div>`);
  }
  const total = snapshot.components.length;
  if (total > 0) {
    const working = snapshot.components.filter((c) => c.state === 'operational').length;
    items.push(`<div class="stat"><dt>Components operational</dt><dd>${working} / ${total}</dd></div>`);
  }
  return items.length === 0 ? '' : `<dl class="stats">${items.join('')}</dl>`;
}

function siteFooter(snapshot: Snapshot, options: HtmlPageOptions): string {
  const formats = [
    `<a href="${escapeHtml(options.jsonPath)}">JSON</a>`,
    `<a href="${escapeHtml(options.markdownPath)}">Markdown</a>`,
    options.feedPath ? `<a href="${escapeHtml(options.feedPath)}">RSS feed</a>` : '',
  ].filter((link) => link !== '');
  return (
    '<footer class="site-foot"><div class="wrap">' +
    `<p>Last updated ${timeHtml(snapshot.generatedAt)}</p>` +
    `<p>${formats.join(' · ')} · Powered by Warden</p>` +
    '</div></footer>'
  );
}
