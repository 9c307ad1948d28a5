// Which status pages AI readers (MCP, llms.txt) may see: no password, aiPolicy allow, and on a page's custom domain that page only.
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { AI_LIMITS } from '../ai-limits.js';
import type { PagesContext } from '../runtime.js';
import type { CachedPage } from './page-cache.js';

/** Where the request came in: on a page's custom domain, AI readers see that page and no other. */
export interface PublicScope {
  host?: string | undefined;
}

type PublicPagesContext = Pick<PagesContext, 'pages'>;

/** The one rule: a page is exposed to AI readers when it has no password and its aiPolicy is `allow`. */
export function isExposedToAi(page: Page): boolean {
  return page.passwordHash === null && page.aiPolicy === 'allow';
}

/** The exposed pages of this scope, by slug, at most AI_LIMITS.publicPages; from memory, no database work. */
export function listPublicPages({ pages }: PublicPagesContext, scope: PublicScope = {}): Page[] {
  const onDomain = scope.host ? pages.pageByDomain(scope.host) : undefined;
  const candidates = onDomain ? [onDomain] : pages.pages();
  return candidates
    .filter(isExposedToAi)
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, AI_LIMITS.publicPages);
}

/**
 * The exposed page with this slug. A page that exists but is hidden (password, aiPolicy disallow, another domain's
 * scope) throws exactly what an unknown slug throws, so nobody can learn that it exists.
 */
export function requirePublicPage({ pages }: PublicPagesContext, { slug, host }: PublicScope & { slug: string }): Page {
  const page = pages.pageBySlug(slug);
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (!page || !isExposedToAi(page) || (onDomain && onDomain.id !== page.id)) throw new NotFoundError('page', slug);
  return page;
}

/** The cached snapshots of these pages, in order; cold pages are built a few at a time so a listing never floods the store. */
export async function loadPublicPages({ pages }: PublicPagesContext, list: Page[]): Promise<CachedPage[]> {
  const out: CachedPage[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const index = next++;
      out[index] = await pages.get(list[index] as Page);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AI_LIMITS.snapshotLoadConcurrency, list.length) }, worker));
  return out;
}

/** The cached snapshot and forms of an exposed page; NotFoundError for an unknown or hidden one. */
export async function getPublicPage(
  ctx: PublicPagesContext,
  input: PublicScope & { slug: string },
): Promise<CachedPage> {
  return ctx.pages.get(requirePublicPage(ctx, input));
}
