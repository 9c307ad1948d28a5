// Every form of a page, by name: each renders one snapshot to bytes; routes and the page cache look forms up here.
import type { Snapshot } from '../domain/snapshot.js';
import { badgeOptions, renderBadge } from './badge.js';
import { embedOptions, renderEmbed } from './embed.js';
import { renderFeed } from './feed.js';
import { renderHtmlPage } from './html-page.js';
import { renderMarkdown } from './markdown.js';
import { renderOgImage } from './og-image.js';

export interface FormContext {
  /** Where the page's forms live: `/s/{slug}`, or `` on the page's custom domain. */
  basePath: string;
  /** Options taken from the query string (already normalized by the form). */
  options: Record<string, string>;
}

export interface Rendered {
  contentType: string;
  body: string | Uint8Array;
}

export interface PageForm {
  /** Pure: the same snapshot, context and options give the same bytes. Async only where the renderer is (og.png). */
  render(snapshot: Snapshot, context: FormContext): Rendered | Promise<Rendered>;
  /** The query parameters this form reads, normalized; everything else is ignored (and so never multiplies the cache). */
  options?(query: URLSearchParams): Record<string, string>;
  /** The bytes ignore basePath, so the page's slug path and its custom domain share one rendering. */
  pathIndependent?: true;
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
  markdown: { render: (snapshot) => renderMarkdown(snapshot), pathIndependent: true },
  html: {
    render: (snapshot, { basePath }) =>
      renderHtmlPage(snapshot, {
        jsonPath: basePath + FORM_PATHS.json,
        markdownPath: basePath + FORM_PATHS.markdown,
        feedPath: basePath + FORM_PATHS.feed,
        // Link previews need an absolute URL; the page's canonical one works on every host.
        ogImageUrl: canonicalUrl(snapshot, FORM_PATHS.og),
        livePath: basePath + FORM_PATHS.live,
        subscribePath: basePath + FORM_PATHS.subscribe,
        refreshSeconds: PAGE_REFRESH_SECONDS,
      }),
  },
  feed: { render: (snapshot) => renderFeed(snapshot, { selfUrl: canonicalUrl(snapshot, FORM_PATHS.feed) }), pathIndependent: true },
  badge: { render: (snapshot, { options }) => renderBadge(snapshot, options), options: badgeOptions, pathIndependent: true },
  og: { render: (snapshot) => renderOgImage(snapshot), pathIndependent: true },
  embed: {
    render: (snapshot, { basePath, options }) =>
      renderEmbed(snapshot, { livePath: basePath + FORM_PATHS.live, jsonPath: basePath + FORM_PATHS.json, theme: options.theme }),
    options: embedOptions,
  },
} satisfies Record<string, PageForm>;

export type FormName = keyof typeof pageForms;

/** The forms whose render returns bytes at once (everything but og.png). */
export type SyncFormName = {
  [K in FormName]: ReturnType<(typeof pageForms)[K]['render']> extends Promise<unknown> ? never : K;
}[FormName];

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
