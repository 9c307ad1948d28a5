// A page's refusals: the 404 of an unknown page, and a protected page's 401 and 429, as the password form (in the
// reader's language) to people and problem+json to machines.
import type { Context } from 'hono';
import { DEFAULT_LANGUAGE, type PageLanguage } from '../../../domain/languages.js';
import type { Page } from '../../../domain/page.js';
import type { FormName } from '../../../render/forms.js';
import { translator } from '../../../render/i18n/index.js';
import { renderLoginPage } from '../../../render/login-page.js';
import { renderNotFoundPage } from '../../../render/not-found-page.js';
import type { AppEnv, PageServingDeps } from '../../env.js';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from '../../problem.js';
import { HTML_HEADERS, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from './page-headers.js';
import { languageHeaders, type ReaderLanguage } from './page-language.js';
import type { PageTarget } from './page-paths.js';
import { requestClient } from './request-client.js';

/** Forms that people read in a browser get HTML errors; machines get problem+json. */
const HTML_FORMS = new Set<FormName>(['html', 'embed']);

/** The reader's language for the HTML answers made here (the password form, the 404), resolved like the page's own. */
export function readerOf(target: PageTarget): ReaderLanguage {
  const picked = target.options.lang as PageLanguage | undefined;
  return {
    language: target.language ?? DEFAULT_LANGUAGE,
    fromHeader: target.varyLanguage === true,
    ...(picked ? { picked } : {}),
  };
}

export function notFound(c: Context<AppEnv>, slug: string, form: FormName, reader: ReaderLanguage): Response {
  const headers = { 'cache-control': PUBLIC_CACHE_CONTROL };
  if (HTML_FORMS.has(form)) {
    const page = renderNotFoundPage(slug, translator(reader.language));
    return new Response(page.body, {
      status: 404,
      headers: { ...headers, 'content-type': page.contentType, ...HTML_HEADERS, ...languageHeaders(reader) },
    });
  }
  const body = {
    ...problem(404, 'page-not-found', 'Page not found', `There is no status page "${slug}".`),
    instance: c.req.path,
  };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE },
  });
}

/**
 * A protected page's refusal of this request (429 while its client is held off, 401 without the password), in the
 * form's kind; undefined when the request carries the password (cookie or bearer).
 */
export async function pageAccessRefusal(
  c: Context<AppEnv>,
  { pageAccess, clock }: Pick<PageServingDeps, 'pageAccess' | 'clock'>,
  page: Page,
  form: FormName,
  basePath: string,
  reader: ReaderLanguage,
): Promise<Response | undefined> {
  const request = {
    cookie: c.req.header('cookie'),
    authorization: c.req.header('authorization'),
    client: requestClient(c),
  };
  const access = await pageAccess.allowed(page, request, () => clock.now());
  if (access.kind === 'limited') return tooManyAttempts(c, form, basePath, access.retryAfterSec, reader);
  if (access.kind === 'denied') return passwordRequired(c, form, basePath, reader);
  return undefined;
}

/** The challenge of a protected page: it names no page (a custom domain's address does not give its slug away). */
export const PAGE_CHALLENGE = 'Bearer realm="status page"';

/**
 * 401: the password form for people (naming no page), in the reader's language, saying the last password was wrong
 * when `wrongPassword`; problem+json for machines.
 */
export function passwordRequired(
  c: Context<AppEnv>,
  form: FormName,
  basePath: string,
  reader: ReaderLanguage,
  wrongPassword = false,
): Response {
  const headers = { 'cache-control': PRIVATE_CACHE_CONTROL, 'www-authenticate': PAGE_CHALLENGE };
  return HTML_FORMS.has(form)
    ? loginForm(
        401,
        basePath,
        reader,
        wrongPassword ? translator(reader.language).t('login.wrongPassword') : undefined,
        headers,
      )
    : problemAnswer(
        c,
        problem(
          401,
          'password-required',
          'Password required',
          'This page is protected: send Authorization: Bearer <page password>.',
        ),
        headers,
      );
}

/** 429 with Retry-After: too many wrong passwords from this client for this page; none is checked until then. */
export function tooManyAttempts(
  c: Context<AppEnv>,
  form: FormName,
  basePath: string,
  retryAfterSec: number,
  reader: ReaderLanguage,
): Response {
  const headers = { 'cache-control': PRIVATE_CACHE_CONTROL, 'retry-after': String(retryAfterSec) };
  if (HTML_FORMS.has(form))
    return loginForm(
      429,
      basePath,
      reader,
      translator(reader.language).t('login.tooManyAttempts', { seconds: retryAfterSec }),
      headers,
    );
  const detail = `Too many wrong passwords for this page from your address; try again in ${retryAfterSec} s.`;
  return problemAnswer(c, problem(429, 'too-many-attempts', 'Too many password attempts', detail), headers);
}

function loginForm(
  status: number,
  basePath: string,
  reader: ReaderLanguage,
  error: string | undefined,
  headers: Record<string, string>,
): Response {
  // A reader's pick (?lang) stays with them through the form's POST and its redirect back to the page.
  const action = `${basePath}/login${reader.picked ? `?lang=${encodeURIComponent(reader.picked)}` : ''}`;
  const html = renderLoginPage({ action, i18n: translator(reader.language), ...(error ? { error } : {}) });
  return new Response(html.body, {
    status,
    headers: { ...headers, 'content-type': html.contentType, ...HTML_HEADERS, ...languageHeaders(reader) },
  });
}

function problemAnswer(c: Context<AppEnv>, body: Problem, headers: Record<string, string>): Response {
  return new Response(JSON.stringify({ ...body, instance: c.req.path }), {
    status: body.status,
    headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE },
  });
}
