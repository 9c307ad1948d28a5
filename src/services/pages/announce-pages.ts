// The start-up log's list of status pages: where each is served, so whoever started Warden can open them at once.
import type { Page } from '../../domain/page.js';
import type { Logger } from '../../logger.js';

/** Pages named one per line at start-up; past this, one line says how many more (a large installation's log stays short). */
export const ANNOUNCED_PAGES_MAX = 20;

export type AnnouncedPage = Pick<Page, 'slug' | 'title' | 'customDomain' | 'customDomainVerifiedAt' | 'passwordHash'>;

/** One info line per page, by title: its URL under the base URL, and its custom domain once verified. */
export function announcePages(logger: Logger, pages: readonly AnnouncedPage[], baseUrl: string): void {
  const sorted = [...pages].sort((a, b) => a.title.localeCompare(b.title) || a.slug.localeCompare(b.slug));
  for (const page of sorted.slice(0, ANNOUNCED_PAGES_MAX)) {
    const url = `${baseUrl}/s/${page.slug}`;
    // An unproven domain serves nothing yet, so it is not announced.
    const domain =
      page.customDomain !== null && page.customDomainVerifiedAt !== null ? `https://${page.customDomain}/` : null;
    const protectedNote = page.passwordHash === null ? '' : ' (password-protected)';
    logger.info(
      { page: page.slug, url, ...(domain ? { customDomain: domain } : {}) },
      `status page "${page.title}": ${url}${domain ? ` and ${domain}` : ''}${protectedNote}`,
    );
  }
  const more = sorted.length - ANNOUNCED_PAGES_MAX;
  if (more > 0)
    logger.info(
      { more },
      `and ${more} more status page${more === 1 ? '' : 's'} (listed in the dashboard at ${baseUrl}/app/)`,
    );
}
