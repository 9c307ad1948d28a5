// Every form of a page, by name: each renders one snapshot to bytes; routes and the page cache look forms up here.
import type { Snapshot } from '../domain/snapshot.js';
import { renderHtmlPage } from './html-page.js';
import { renderMarkdown } from './markdown.js';

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
  render(snapshot: Snapshot, context: FormContext): Rendered;
  /** The query parameters this form reads, normalized; everything else is ignored (and so never multiplies the cache). */
  options?(query: URLSearchParams): Record<string, string>;
}

/** The page refreshes itself this often (seconds); the live stream makes it instant later. */
export const PAGE_REFRESH_SECONDS = 30;

export const pageForms = {
  json: {
    render: (snapshot) => ({ contentType: 'application/json; charset=utf-8', body: JSON.stringify(snapshot) }),
  },
  markdown: { render: (snapshot) => renderMarkdown(snapshot) },
  html: {
    render: (snapshot, { basePath }) =>
      renderHtmlPage(snapshot, {
        jsonPath: `${basePath}/status.json`,
        markdownPath: `${basePath}/status.md`,
        refreshSeconds: PAGE_REFRESH_SECONDS,
      }),
  },
} satisfies Record<string, PageForm>;

export type FormName = keyof typeof pageForms;
