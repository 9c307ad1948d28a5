// Every form of a page, by name: each renders one snapshot to bytes; routes and the page cache look forms up here.
import { matchLanguage, type PageLanguage } from '../domain/languages.js';
import type { Snapshot } from '../domain/snapshot.js';
import { badgeOptions, renderBadge } from './badge.js';
import { embedCanonicalOptions, embedOptions, renderEmbed } from './embed.js';
import { renderFeed } from './feed.js';
import { chartRange, htmlPageOptions } from './html-charts.js';
import { renderHtmlPage } from './html-page.js';
import { type Translator, translator } from './i18n/index.js';
import { renderMarkdown } from './markdown.js';
import { renderOgImage } from './og-image.js';
import { renderStatuspage, type StatuspageEndpoint } from './statuspage.js';

export interface FormContext {
  /** Where the page's forms live: `/s/{slug}`, or `` on the page's custom domain. */
  basePath: string;
  /** Options taken from the query string (already normalized by the form). */
  options: Record<string, string>;
  /** Uploaded images a form draws itself (og.png embeds the logo), read with the snapshot; none when absent. */
  images?: FormImages;
  /**
   * The reader's language, resolved per request (?lang, else the page's, else Accept-Language, else English: see
   * src/http/routes/status/page-language.ts); a `localized` form renders in it, the others ignore it. The page's own
   * (else English) when left out.
   */
  language?: PageLanguage;
}

/** The bytes of a page's uploaded images that renderers embed (the logo, when it is a PNG or JPEG). */
export interface FormImages {
  logo?: { contentType: 'image/png' | 'image/jpeg'; body: Uint8Array };
}

export interface Rendered {
  contentType: string;
  body: string | Uint8Array;
  /** An HTML form's own Content-Security-Policy (a branded page allows its stylesheet and image hosts); the form's default when absent. */
  contentSecurityPolicy?: string;
  /** 404: a rendering that stands for something the page lacks (an embed of an unknown component); 200 when absent. */
  status?: 404;
}

export interface PageForm {
  /** Pure: the same snapshot, context and options give the same bytes. Async only where the renderer is (og.png). */
  render(snapshot: Snapshot, context: FormContext): Rendered | Promise<Rendered>;
  /** The query parameters this form reads, normalized; everything else is ignored (and so never multiplies the cache). */
  options?(query: URLSearchParams): Record<string, string>;
  /** The options against the snapshot, so aliases share one rendering (the embed: a component's name → its id). */
  canonical?(snapshot: Snapshot, options: Record<string, string>): Record<string, string>;
  /** The bytes ignore basePath, so the page's slug path and its custom domain share one rendering. */
  pathIndependent?: true;
  /** The bytes are in the reader's language: rendered and cached per language, answered with Content-Language. */
  localized?: true;
}

/** The page refreshes itself this often (seconds) when the live stream is unavailable. */
export const PAGE_REFRESH_SECONDS = 30;

/** Page-relative paths of the forms that link to each other, and of the live stream. */
export const FORM_PATHS = {
  json: '/status.json',
  markdown: '/status.md',
  feed: '/feed.xml',
  badge: '/badge.svg',
  og: '/og.png',
  embed: '/embed',
  live: '/live',
  /** POST: subscribe to the page's incidents and maintenance (the HTML page's form posts here). */
  subscribe: '/subscribe',
} as const;

export const pageForms = {
  json: {
    render: (snapshot) => ({ contentType: 'application/json; charset=utf-8', body: JSON.stringify(snapshot) }),
    pathIndependent: true,
  },
  markdown: {
    render: (snapshot, { language }) => renderMarkdown(snapshot, { i18n: i18nOf(snapshot, language) }),
    options: languageOption,
    pathIndependent: true,
    localized: true,
  },
  html: {
    render: (snapshot, { basePath, options, language }) => {
      // A reader's pick (?lang) stays with them on the page's links to its other forms.
      const keep = options.lang ? `?lang=${options.lang}` : '';
      return renderHtmlPage(snapshot, {
        jsonPath: basePath + FORM_PATHS.json,
        markdownPath: basePath + FORM_PATHS.markdown + keep,
        feedPath: basePath + FORM_PATHS.feed + keep,
        // Link previews need an absolute URL; the page's canonical one works on every host.
        ogImageUrl: canonicalUrl(snapshot, FORM_PATHS.og) + keep,
        livePath: basePath + FORM_PATHS.live,
        subscribePath: basePath + FORM_PATHS.subscribe + keep,
        historyPath: `${basePath}/history${keep}`,
        refreshSeconds: PAGE_REFRESH_SECONDS,
        i18n: i18nOf(snapshot, language),
        basePath,
        range: chartRange(options.range),
        ...(options.lang ? { pickedLanguage: options.lang } : {}),
      });
    },
    // ?range picks the charts' window (24h by default, 7d, 30d): each is one cached rendering.
    options: (query) => ({ ...languageOption(query), ...htmlPageOptions(query) }),
    localized: true,
  },
  feed: {
    render: (snapshot, { language }) =>
      renderFeed(snapshot, { selfUrl: canonicalUrl(snapshot, FORM_PATHS.feed), i18n: i18nOf(snapshot, language) }),
    options: languageOption,
    pathIndependent: true,
    localized: true,
  },
  badge: {
    render: (snapshot, { options }) => renderBadge(snapshot, options),
    options: badgeOptions,
    pathIndependent: true,
  },
  og: {
    render: (snapshot, { images, language }) =>
      renderOgImage(snapshot, images?.logo, { i18n: i18nOf(snapshot, language) }),
    options: languageOption,
    pathIndependent: true,
    localized: true,
  },
  embed: {
    render: (snapshot, { basePath, options, language }) =>
      renderEmbed(snapshot, {
        ...options,
        livePath: basePath + FORM_PATHS.live,
        jsonPath: basePath + FORM_PATHS.json,
        basePath,
        i18n: i18nOf(snapshot, language),
      }),
    options: (query) => ({ ...embedOptions(query), ...languageOption(query) }),
    canonical: embedCanonicalOptions,
    localized: true,
  },
  // Atlassian Statuspage's public API v2, for tools written against it (docs/statuspage-compat.md).
  statuspageSummary: statuspageForm('summary'),
  statuspageStatus: statuspageForm('status'),
  statuspageComponents: statuspageForm('components'),
  statuspageIncidents: statuspageForm('incidents'),
  statuspageUnresolved: statuspageForm('unresolved'),
  statuspageMaintenances: statuspageForm('maintenances'),
  statuspageUpcoming: statuspageForm('upcoming'),
  statuspageActive: statuspageForm('active'),
} satisfies Record<string, PageForm>;

export type FormName = keyof typeof pageForms;

/** The forms whose render returns bytes at once (everything but og.png). */
export type SyncFormName = {
  [K in FormName]: ReturnType<(typeof pageForms)[K]['render']> extends Promise<unknown> ? never : K;
}[FormName];

/** `?lang=xx`, a shipped language (matched loosely: de-AT → de), as the option `lang`; nothing otherwise. */
export function languageOption(query: URLSearchParams): Record<string, string> {
  const tag = query.get('lang');
  const language = tag ? matchLanguage(tag.slice(0, 35)) : undefined;
  return language ? { lang: language } : {};
}

/** The translator a localized form renders with: the reader's language, the page's time zone. */
function i18nOf(snapshot: Snapshot, language: PageLanguage | undefined): Translator {
  return translator(language ?? snapshot.page.language ?? undefined, snapshot.page.timeZone);
}

function statuspageForm(endpoint: StatuspageEndpoint) {
  return { render: (snapshot: Snapshot) => renderStatuspage(snapshot, endpoint), pathIndependent: true as const };
}

/** The absolute URL of a form under the page's canonical URL (the same whichever host served the request). */
export function canonicalUrl(snapshot: Snapshot, path: string): string {
  return snapshot.page.url.replace(/\/+$/, '') + path;
}

/** The normalized options of a form for a query string ('' or 'a=1&b'); the same object for every request without any. */
export function formOptions(name: FormName, query: string): Record<string, string> {
  const form: PageForm = pageForms[name];
  if (!form.options || query === '') return NO_OPTIONS;
  const options = form.options(new URLSearchParams(query));
  return Object.keys(options).length === 0 ? NO_OPTIONS : options;
}

const NO_OPTIONS: Record<string, string> = Object.freeze({}) as Record<string, string>;
