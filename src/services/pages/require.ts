// Finds a page of the organization by slug; another organization's page is "not found", never "forbidden".
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { Db } from '../../store/connect.js';
import { findPageByDomain, findPageBySlug, type Page } from '../../store/pages.js';

export async function requirePage(db: Db, organizationId: string, slug: string): Promise<Page> {
  const page = await findPageBySlug(db, slug);
  if (!page || page.organizationId !== organizationId) throw new NotFoundError('page', slug);
  return page;
}

/** A custom domain serves one page only. */
export async function assertDomainFree(db: Db, domain: string | null | undefined, slug: string): Promise<void> {
  if (domain === null || domain === undefined) return;
  const holder = await findPageByDomain(db, domain);
  if (holder && holder.slug !== slug) throw new ConflictError(`the custom domain ${domain} is already used by another page`);
}
