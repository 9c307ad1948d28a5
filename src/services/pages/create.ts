// Creates a page through the API; the password, if any, is stored hashed.
import { ConflictError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { hashPassword } from '../../domain/passwords.js';
import { findPageBySlug, insertPage, listPages } from '../../store/pages.js';
import { API_LIMITS } from '../api-limits.js';
import { uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { assertDomainFree } from './require.js';
import type { PageCreateInput } from './schema.js';
import { type PageView, pageView } from './view.js';

export async function createPage({ db, bus, clock }: ServiceDeps, organizationId: string, input: PageCreateInput): Promise<PageView> {
  const now = clock.now();
  const taken = `the slug "${input.slug}" is already taken`;
  const page = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        if ((await listPages(trx, organizationId)).length >= API_LIMITS.pagesPerOrganization)
          throw new ConflictError(`an organization has at most ${API_LIMITS.pagesPerOrganization} pages`);
        if (await findPageBySlug(trx, input.slug)) throw new ConflictError(taken);
        await assertDomainFree(trx, input.customDomain, input.slug);
        const id = newId('pg');
        await insertPage(
          trx,
          {
            id,
            organizationId,
            slug: input.slug,
            title: input.title,
            description: input.description ?? null,
            customDomain: input.customDomain ?? null,
            aiPolicy: input.aiPolicy,
            passwordHash: input.password === undefined ? null : hashPassword(input.password),
            managedBy: 'api',
          },
          now,
        );
        return findPageBySlug(trx, input.slug);
      }),
    taken,
  );
  if (!page) throw new Error('page vanished after insert');
  bus.publish({ type: 'page.changed', at: now, pageId: page.id });
  return pageView(page);
}
