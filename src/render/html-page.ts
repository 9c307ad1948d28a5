// The HTML form of a status page, the one players see: server-rendered, accessible, refreshing itself in place.
import { LANGUAGE_NAMES, PAGE_LANGUAGES } from '../domain/languages.js';
import type { ChartRange, Snapshot } from '../domain/snapshot.js';
import { gameChangesHtml } from './game-changes.js';
import { brandedDocument, brandFooterHtml, brandLinksHtml, brandTitleHtml } from './html-branding.js';
import { DEFAULT_CHART_RANGE } from './html-charts.js';
import { componentsSectionHtml } from './html-components.js';
import { activeIncidentsHtml, maintenanceHtml, recentIncidentsHtml } from './html-incidents.js';
import { escapeHtml, type HtmlRendering, htmlDocument, stateIcon, timeHtml } from './html-layout.js';
import { htmlMessage } from './html-message.js';
import { subscribeHtml } from './html-subscribe.js';
import { type Translator, translator } from './i18n/index.js';
import { countOfText, overallLabel, stateWord } from './i18n/wording.js';
import { OG_HEIGHT, OG_WIDTH } from './og-image.js';
import { plainText } from './page-wording.js';

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
  /** Where the page's uptime history is, linked when it publishes one (snapshot.page.uptimeHistory). */
  historyPath?: string;
  /** The reader's language, dates in the page's time zone; the page's own language (else English) when left out. */
  i18n?: Translator;
  /** Where the page's own images and stylesheet are (`/s/{slug}`, or '' on its custom domain); '' when left out. */
  basePath?: string;
  /** The window of the components' charts (?range); 24 hours when left out. */
  range?: ChartRange;
  /** The language the reader picked (?lang), kept by the chart range links; none when left out. */
  pickedLanguage?: string;
}

/** The whole status page as HTML; the same snapshot and options always give the same bytes. */
export function renderHtmlPage(snapshot: Snapshot, options: HtmlPageOptions): HtmlRendering {
  const i18n = options.i18n ?? translator(snapshot.page.language ?? undefined, snapshot.page.timeZone);
  const title = plainText(snapshot.page.title) || snapshot.page.slug;
  const refresh = Math.max(0, Math.floor(options.refreshSeconds));
  const label = overallLabel(i18n, plainText(snapshot.overall.label));
  const brand = brandedDocument(snapshot.page.branding, options.basePath ?? '');
  const body =
    '<div id="announce" class="sr-only" aria-live="polite"></div>\n' +
    siteHeader(i18n, snapshot, title, options) +
    '\n<main id="main" tabindex="-1"><div class="wrap">' +
    banner(i18n, snapshot, label) +
    stats(i18n, snapshot) +
    activeIncidentsHtml(i18n, snapshot.activeIncidents) +
    maintenanceHtml(i18n, snapshot.maintenance) +
    gameChangesHtml(i18n, snapshot.gameChanges) +
    componentsSectionHtml(i18n, snapshot.components, {
      range: options.range ?? DEFAULT_CHART_RANGE,
      keepQuery: options.pickedLanguage ? `lang=${encodeURIComponent(options.pickedLanguage)}&` : '',
      activeIncidents: snapshot.activeIncidents,
      maintenance: snapshot.maintenance.active,
    }) +
    recentIncidentsHtml(i18n, snapshot.recentIncidents, snapshot.activeIncidents.length) +
    '</div></main>\n' +
    // Outside <main>: the page script swaps <main> as the page changes, which would clear a half-typed address.
    subscribeHtml(i18n, snapshot, options.subscribePath) +
    siteFooter(i18n, snapshot, options);
  return {
    contentType: 'text/html; charset=utf-8',
    body: htmlDocument({
      // The state first, so a row of browser tabs shows which page has trouble.
      title: i18n.t('page.documentTitle', { label, title }),
      htmlAttributes:
        ` data-refresh="${refresh}" data-generated="${snapshot.generatedAt}"` +
        (options.livePath ? ` data-live="${escapeHtml(options.livePath)}"` : ''),
      head: head(i18n, snapshot, title, label, options, refresh),
      body,
      script: true,
      faviconState: snapshot.overall.state,
      i18n,
      // A branded page: its accent, stylesheet and favicon, under a policy allowing exactly them (html-branding.ts).
      ...(brand
        ? {
            afterStyles: brand.afterStyles,
            contentSecurityPolicy: brand.contentSecurityPolicy,
            ...(brand.favicon ? { favicon: brand.favicon } : {}),
          }
        : {}),
    }),
    ...(brand ? { contentSecurityPolicy: brand.contentSecurityPolicy } : {}),
  };
}

function head(
  i18n: Translator,
  snapshot: Snapshot,
  title: string,
  label: string,
  options: HtmlPageOptions,
  refresh: number,
): string {
  const description = plainText(snapshot.page.description ?? '') || i18n.t('page.description', { title });
  const ogDescription = `${label}. ${description}`;
  const statusTitle = i18n.t('common.statusOf', { title });
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}">\n`;
  let html =
    meta('name', 'description', description) +
    `<link rel="canonical" href="${escapeHtml(snapshot.page.url)}">\n` +
    `<link rel="alternate" type="application/json" href="${escapeHtml(options.jsonPath)}" title="JSON">\n` +
    `<link rel="alternate" type="text/markdown" href="${escapeHtml(options.markdownPath)}" title="Markdown">\n`;
  if (options.feedPath)
    html += `<link rel="alternate" type="application/rss+xml" href="${escapeHtml(options.feedPath)}" title="${escapeHtml(i18n.t('page.feedTitle', { title }))}">\n`;
  html +=
    meta('property', 'og:type', 'website') +
    meta('property', 'og:site_name', title) +
    meta('property', 'og:title', statusTitle) +
    meta('property', 'og:description', ogDescription) +
    meta('property', 'og:url', snapshot.page.url) +
    meta('property', 'og:locale', i18n.language.replace('-', '_'));
  if (options.ogImageUrl)
    html +=
      meta('property', 'og:image', options.ogImageUrl) +
      meta('property', 'og:image:type', 'image/png') +
      meta('property', 'og:image:width', String(OG_WIDTH)) +
      meta('property', 'og:image:height', String(OG_HEIGHT)) +
      meta('property', 'og:image:alt', `${title}: ${label}`);
  html +=
    meta('name', 'twitter:card', options.ogImageUrl ? 'summary_large_image' : 'summary') +
    meta('name', 'twitter:title', statusTitle) +
    meta('name', 'twitter:description', ogDescription);
  if (options.ogImageUrl) html += meta('name', 'twitter:image', options.ogImageUrl);
  // Without script the page still refreshes, by a full reload.
  if (refresh > 0) html += `<noscript><meta http-equiv="refresh" content="${refresh}"></noscript>\n`;
  return html;
}

function siteHeader(i18n: Translator, snapshot: Snapshot, title: string, options: HtmlPageOptions): string {
  const description = plainText(snapshot.page.description ?? '');
  const links = [
    options.feedPath ? `<a href="${escapeHtml(options.feedPath)}">RSS</a>` : '',
    `<a href="${escapeHtml(options.jsonPath)}">JSON</a>`,
    `<a href="${escapeHtml(options.markdownPath)}">Markdown</a>`,
    snapshot.page.subscribe && options.subscribePath
      ? `<a href="#subscribe">${escapeHtml(i18n.t('page.subscribeLink'))}</a>`
      : '',
  ].join('');
  return (
    '<header class="site-head"><div class="wrap"><div>' +
    `<h1>${brandTitleHtml(snapshot.page.branding, title, options.basePath ?? '')}</h1>` +
    (description ? `<p>${escapeHtml(description)}</p>` : '') +
    brandLinksHtml(i18n, snapshot.page.branding) +
    `</div><div class="head-end"><nav class="feeds" aria-label="${escapeHtml(i18n.t('page.otherFormats'))}">${links}</nav>` +
    languagePicker(i18n, options.range && options.range !== DEFAULT_CHART_RANGE ? `&range=${options.range}` : '') +
    '</div></div></header>'
  );
}

/**
 * The reader's pick of language, without script: links to `?lang=xx` (a relative URL keeps the page's path), each
 * language named in itself. The pick wins over the page's setting and the browser's Accept-Language, and the page
 * keeps it in its links (forms.ts adds ?lang to them) and its live refresh (which fetches this same URL).
 */
function languagePicker(i18n: Translator, keepQuery = ''): string {
  const items = PAGE_LANGUAGES.map(
    (language) =>
      `<li><a href="?lang=${language}${escapeHtml(keepQuery)}" hreflang="${language}" lang="${language}"${language === i18n.language ? ' aria-current="true"' : ''}>${escapeHtml(LANGUAGE_NAMES[language])}</a></li>`,
  ).join('');
  return (
    `<details class="lang" data-testid="language-picker"><summary><span class="sr-only">${escapeHtml(i18n.t('page.language'))}: </span>` +
    `${escapeHtml(LANGUAGE_NAMES[i18n.language])}</summary><ul>${items}</ul></details>`
  );
}

function banner(i18n: Translator, snapshot: Snapshot, label: string): string {
  const { state } = snapshot.overall;
  return (
    `<section class="banner t-${state}" data-testid="overall" data-state="${state}" aria-labelledby="overall-label">` +
    stateIcon(state) +
    '<div>' +
    `<h2 class="banner-label" id="overall-label"><span class="sr-only">${escapeHtml(i18n.t('page.overallStatus', { state: stateWord(i18n, state) }))} </span>${escapeHtml(label)}</h2>` +
    `<p class="banner-meta">${htmlMessage(i18n, 'page.lastUpdated', {}, { time: timeHtml(i18n, snapshot.generatedAt, ' data-relative') })}</p>` +
    '</div></section>'
  );
}

function stats(i18n: Translator, snapshot: Snapshot): string {
  const { players, maxPlayers } = snapshot.totals;
  const items: string[] = [];
  if (players !== null)
    items.push(
      `<div class="stat"><dt>${escapeHtml(i18n.t('page.playersOnline'))}</dt><dd>${escapeHtml(countOfText(i18n, players, maxPlayers))}</dd></div>`,
    );
  const total = snapshot.components.length;
  if (total > 0) {
    const working = snapshot.components.filter((c) => c.state === 'operational').length;
    items.push(
      `<div class="stat"><dt>${escapeHtml(i18n.t('page.componentsOperational'))}</dt><dd>${escapeHtml(countOfText(i18n, working, total))}</dd></div>`,
    );
  }
  return items.length === 0 ? '' : `<dl class="stats">${items.join('')}</dl>`;
}

function siteFooter(i18n: Translator, snapshot: Snapshot, options: HtmlPageOptions): string {
  const formats = [
    `<a href="${escapeHtml(options.jsonPath)}">JSON</a>`,
    `<a href="${escapeHtml(options.markdownPath)}">Markdown</a>`,
    options.feedPath ? `<a href="${escapeHtml(options.feedPath)}">${escapeHtml(i18n.t('page.rssFeed'))}</a>` : '',
    snapshot.page.uptimeHistory && options.historyPath
      ? `<a href="${escapeHtml(options.historyPath)}">${escapeHtml(i18n.t('history.link'))}</a>`
      : '',
  ].filter((link) => link !== '');
  return (
    '<footer class="site-foot"><div class="wrap">' +
    brandFooterHtml(snapshot.page.branding) +
    `<p>${htmlMessage(i18n, 'page.lastUpdated', {}, { time: timeHtml(i18n, snapshot.generatedAt) })}` +
    // Every time names its zone; UTC needs no more, another zone is said once in full.
    (i18n.timeZone === 'UTC' ? '' : ` · ${escapeHtml(i18n.t('page.timeZone', { zone: i18n.timeZone }))}`) +
    '</p>' +
    `<p>${formats.join(' · ')}${snapshot.page.branding.poweredBy ? ` · ${escapeHtml(i18n.t('common.poweredBy'))}` : ''}</p>` +
    '</div></footer>'
  );
}
