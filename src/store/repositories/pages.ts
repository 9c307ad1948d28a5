// Status pages: slug, title, custom domain, password hash and AI policy.
import type { Selectable } from 'kysely';
import type { Page } from '../../domain/page.js';
import type { PageRepository } from '../store.js';
import type { Db, PagesTable } from '../tables.js';
import { countOf } from './count.js';

const toPage = (r: Selectable<PagesTable>): Page => ({
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

export function pageRepository(db: Db): PageRepository {
  const one = async (column: 'id' | 'slug' | 'custom_domain', value: string) => {
    const row = await db.selectFrom('pages').selectAll().where(column, '=', value).executeTakeFirst();
    return row && toPage(row);
  };
  return {
    async list(organizationId) {
      let query = db.selectFrom('pages').selectAll();
      if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId);
      return (await query.orderBy('slug').execute()).map(toPage);
    },
    count: (organizationId) => countOf(db.selectFrom('pages').where('organization_id', '=', organizationId)),
    findById: (id) => one('id', id),
    findBySlug: (slug) => one('slug', slug),
    findByDomain: (domain) => one('custom_domain', domain.toLowerCase()),
    async insert(page, now) {
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
    },
    async update(id, changes, now) {
      // Kysely leaves out the columns whose value is undefined: only what `changes` names is written.
      await db
        .updateTable('pages')
        .set({
          slug: changes.slug,
          title: changes.title,
          description: changes.description,
          custom_domain: changes.customDomain,
          ai_policy: changes.aiPolicy,
          password_hash: changes.passwordHash,
          managed_by: changes.managedBy,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
    async delete(id) {
      await db.deleteFrom('pages').where('id', '=', id).execute();
    },
  };
}
