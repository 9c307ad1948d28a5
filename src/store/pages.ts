// Status pages: slug, title, custom domain, password and AI policy.
import type { Db } from './connect.js';
import type { ManagedBy, PagesTable } from './tables.js';

export interface Page {
  id: string;
  organizationId: string;
  slug: string;
  title: string;
  description: string | null;
  customDomain: string | null;
  passwordHash: string | null;
  aiPolicy: 'allow' | 'disallow';
  managedBy: ManagedBy;
  createdAt: number;
  updatedAt: number;
}

export type PageSpec = Pick<Page, 'slug' | 'title' | 'description' | 'customDomain' | 'aiPolicy'>;

const toPage = (r: PagesTable): Page => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  customDomain: r.custom_domain,
  passwordHash: r.password_hash,
  aiPolicy: r.ai_policy,
  managedBy: r.managed_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function listPages(db: Db, organizationId?: string): Promise<Page[]> {
  let query = db.selectFrom('pages').selectAll();
  if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId);
  return (await query.orderBy('slug').execute()).map(toPage);
}

export async function findPageBySlug(db: Db, slug: string): Promise<Page | undefined> {
  const row = await db.selectFrom('pages').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row && toPage(row);
}

export async function findPageById(db: Db, id: string): Promise<Page | undefined> {
  const row = await db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toPage(row);
}

export async function findPageByDomain(db: Db, domain: string): Promise<Page | undefined> {
  const row = await db.selectFrom('pages').selectAll().where('custom_domain', '=', domain.toLowerCase()).executeTakeFirst();
  return row && toPage(row);
}

export async function insertPage(
  db: Db,
  page: PageSpec & { id: string; organizationId: string; passwordHash: string | null; managedBy: ManagedBy },
  now: number,
): Promise<void> {
  await db
    .insertInto('pages')
    .values({
      id: page.id,
      organization_id: page.organizationId,
      slug: page.slug,
      title: page.title,
      description: page.description,
      custom_domain: page.customDomain,
      password_hash: page.passwordHash,
      ai_policy: page.aiPolicy,
      managed_by: page.managedBy,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updatePage(
  db: Db,
  id: string,
  changes: Partial<PageSpec> & { passwordHash?: string | null; managedBy?: ManagedBy },
  now: number,
): Promise<void> {
  await db
    .updateTable('pages')
    .set({
      ...(changes.slug !== undefined ? { slug: changes.slug } : {}),
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.customDomain !== undefined ? { custom_domain: changes.customDomain } : {}),
      ...(changes.aiPolicy !== undefined ? { ai_policy: changes.aiPolicy } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.managedBy !== undefined ? { managed_by: changes.managedBy } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deletePage(db: Db, id: string): Promise<void> {
  await db.deleteFrom('pages').where('id', '=', id).execute();
}
