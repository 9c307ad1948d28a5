// The pre-router's page path: a public page already in memory, in a form already rendered, answered without the app.
import type { PageCache } from '../../../services/pages/page-cache.js';
import { corsHeadersOf, PAGE_CORS } from '../../cors.js';
import { type FastPath, problemAnswer } from '../../pre-router.js';
import { readerLanguage } from './page-language.js';
import { type PageTarget, pageForm, resolvePageTarget } from './page-paths.js';
import { publicFormResponse } from './serve-form.js';

const CORS = corsHeadersOf(PAGE_CORS);
/** Distinct (host, URL) pairs whose page targets are remembered; a flood of made-up query strings only empties the memo. */
const TARGET_MEMO_MAX = 2048;

/**
 * Cached reads are the hot path (every player refreshing a page, every badge on every forum post): they skip the router
 * and middleware and cost about what a bare node:http server serving the same bytes costs. A public page not in memory
 * yet is built here too, and a form not rendered yet (og.png) rendered here, so a server that only serves its pages
 * never builds the app; a protected or unknown page is left to the app. The bytes, headers and ETag are those the app
 * sends (formResponse builds both, see publicFormResponse).
 */
export function pageFastPath(pages: PageCache): FastPath {
  const targets = pageTargets(pages);
  return {
    name: 'pages',
    answer(req) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
      const url = req.url ?? '/';
      const headers = req.headers;
      const target = targets(headers.host, url, headers.accept, headers['accept-language']);
      if (!target) return undefined;
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const answer = publicFormResponse(
        pages,
        target,
        path,
        headers['if-none-match'],
        headers['accept-encoding'],
        CORS,
      );
      if (answer === null) return undefined;
      // A failed build or rendering: the app's problem answer, with the page's CORS headers as its middleware adds them.
      return answer instanceof Promise ? answer.catch((error: unknown) => problemAnswer(error, url, CORS)) : answer;
    },
  };
}

/** A (host, URL)'s resolution: its target for each accept class (HTML or Markdown differ on the page path only). */
interface Resolved {
  html: PageTarget;
  markdown: PageTarget;
  /** The readers' languages for a localized form whose language comes from Accept-Language, by language. */
  byLanguage: Map<string, PageTarget>;
}

/**
 * resolvePageTarget, remembered per (host, URL) until the page index is reloaded (its Page objects are then new):
 * a cached read pays a Map lookup, not the host, path and query parsing. Only known pages are remembered (the app
 * answers the rest), so unknown paths never fill the memo.
 */
function pageTargets(
  pages: PageCache,
): (
  host: string | undefined,
  url: string,
  accept: string | undefined,
  acceptLanguage: string | undefined,
) => PageTarget | null {
  const memo = new Map<string, Resolved>();
  let version = pages.indexVersion();
  return (host, url, accept, acceptLanguage) => {
    if (pages.indexVersion() !== version) {
      memo.clear();
      version = pages.indexVersion();
    }
    const key = host === undefined ? url : `${host}\u0000${url}`;
    let resolved = memo.get(key);
    if (!resolved) {
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const search = query === -1 ? '' : url.slice(query + 1);
      // Resolved without Accept-Language: a language that comes from it is picked per request below.
      const html = resolvePageTarget(pages, host, path, undefined, search);
      if (!html?.page) return html && resolvePageTarget(pages, host, path, accept, search, acceptLanguage);
      const markdown = resolvePageTarget(pages, host, path, 'text/markdown', search) ?? html;
      resolved = { html, markdown, byLanguage: new Map() };
      if (memo.size >= TARGET_MEMO_MAX) memo.clear();
      memo.set(key, resolved);
    }
    const base =
      resolved.html.form === resolved.markdown.form || pageForm(accept) === 'html' ? resolved.html : resolved.markdown;
    if (base.varyLanguage !== true) return base;
    const reader = readerLanguage(base.page, base.options.lang, acceptLanguage);
    const languageKey = `${base.form}\u0000${reader.language}\u0000${reader.fromHeader ? 1 : 0}`;
    let target = resolved.byLanguage.get(languageKey);
    if (!target) {
      target = { ...base, language: reader.language, varyLanguage: reader.fromHeader };
      resolved.byLanguage.set(languageKey, target);
    }
    return target;
  };
}
