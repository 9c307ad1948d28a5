// Which pages AI readers see, from the page cache's index: the exposure rule, custom domains, the cap, and loading a few at a time.

import { describe, expect, it } from 'vitest';
import { EMPTY_BRANDING } from '../../domain/branding.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Page } from '../../domain/page.js';
import { AI_LIMITS } from '../ai-limits.js';
import { isExposedToAi, listPublicPages, loadPublicPages, requirePublicPage } from './list-public-pages.js';
import type { CachedPage, PageCache } from './page-cache.js';

function page(slug: string, overrides: Partial<Page> = {}): Page {
  return {
    id: `pg_${slug}`,
    organizationId: 'org_1',
    slug,
    title: slug.toUpperCase(),
    description: null,
    customDomain: null,
    customDomainToken: null,
    customDomainVerifiedAt: null,
    customDomainCheckedAt: null,
    passwordHash: null,
    aiPolicy: 'allow',
    notify: null,
    subscriptions: false,
    showPlayerNames: false,
    announceGameChanges: false,
    publishUptimeHistory: false,
    showUnreachable: false,
    draftIncidents: null,
    language: null,
    timeZone: 'UTC',
    branding: EMPTY_BRANDING,
    customCss: null,
    managedBy: 'config',
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}

/**
 * Just the index part of the page cache, from a list, as the context the reads take; get() counts how many builds
 * run at once (each build yields once, so every build started in the same tick overlaps).
 */
function cacheOf(list: Page[]): { pages: PageCache; peak: () => number } {
  let running = 0;
  let peak = 0;
  const pages = {
    pages: () => [...list],
    pageBySlug: (slug: string) => list.find((p) => p.slug === slug),
    pageByDomain: (host: string) => list.find((p) => p.customDomain === host.replace(/:\d+$/, '')),
    async get(p: Page) {
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      running--;
      return { page: p } as CachedPage;
    },
  } as unknown as PageCache;
  return { pages, peak: () => peak };
}

const PAGES = [
  page('zeta'),
  page('alpha', { customDomain: 'status.alpha.test' }),
  page('locked', { passwordHash: 'scrypt$…' }),
  page('quiet', { aiPolicy: 'disallow', customDomain: 'quiet.test' }),
];

describe('the pages exposed to AI readers', () => {
  it('are the pages without a password whose aiPolicy is allow', () => {
    expect(PAGES.filter(isExposedToAi).map((p) => p.slug)).toEqual(['zeta', 'alpha']);
  });

  it('are listed by slug', () => {
    expect(listPublicPages(cacheOf(PAGES)).map((p) => p.slug)).toEqual(['alpha', 'zeta']);
  });

  it('are that page alone on its custom domain, and none on a hidden page’s domain', () => {
    const cache = cacheOf(PAGES);
    expect(listPublicPages(cache, { host: 'status.alpha.test:8080' }).map((p) => p.slug)).toEqual(['alpha']);
    expect(listPublicPages(cache, { host: 'quiet.test' })).toEqual([]);
    expect(listPublicPages(cache, { host: 'unknown.test' }).map((p) => p.slug)).toEqual(['alpha', 'zeta']);
  });

  it(`are at most ${AI_LIMITS.publicPages}`, () => {
    const many = Array.from({ length: AI_LIMITS.publicPages + 5 }, (_, i) => page(`p${String(i).padStart(4, '0')}`));
    const listed = listPublicPages(cacheOf(many));
    expect(listed).toHaveLength(AI_LIMITS.publicPages);
    expect(listed[0]?.slug).toBe('p0000');
  });

  it('hide a protected page exactly like an unknown slug', () => {
    const cache = cacheOf(PAGES);
    expect(requirePublicPage(cache, { slug: 'zeta' }).slug).toBe('zeta');
    const messages = ['nope', 'locked', 'quiet'].map((slug) => {
      try {
        requirePublicPage(cache, { slug });
        return 'found';
      } catch (error) {
        expect(error).toBeInstanceOf(NotFoundError);
        return (error as Error).message.replace(slug, '<slug>');
      }
    });
    expect(new Set(messages)).toEqual(new Set(['page "<slug>" was not found']));
    // On a custom domain, the other pages are out of scope.
    expect(() => requirePublicPage(cache, { slug: 'zeta', host: 'status.alpha.test' })).toThrow(NotFoundError);
    expect(requirePublicPage(cache, { slug: 'alpha', host: 'status.alpha.test' }).slug).toBe('alpha');
  });

  it('are loaded in order, a few cold builds at a time', async () => {
    const many = Array.from({ length: 40 }, (_, i) => page(`p${i}`));
    const cache = cacheOf(many);
    const loaded = await loadPublicPages(cache, many);
    expect(loaded.map((c) => c.page.slug)).toEqual(many.map((p) => p.slug));
    expect(cache.peak()).toBe(AI_LIMITS.snapshotLoadConcurrency);
    expect(await loadPublicPages(cache, [])).toEqual([]);
  });
});
