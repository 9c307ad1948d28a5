// Changes a page created through the API (config-managed pages answer 409).
import { hashPassword } from '../../domain/passwords.js';
import { findPageBySlug, updatePage as updateStored } from '../../store/pages.js';
import { refuseConfigManaged, uniquely } from '../config-managed.js';
import type { ServiceDeps } from '../deps.js';
import { assertDomainFree, requirePage } from './require.js';
import type { PagePatchInput } from './schema.js';
import { type PageView, pageView } from './view.js';

export async function updatePage({ db, bus, clock }: ServiceDeps, organizationId: string, slug: string, patch: PagePatchInput): Promise<PageView> {
  const now = clock.now();
  const page = await uniquely(
    () =>
      db.transaction().execute(async (trx) => {
        const current = await requirePage(trx, organizationId, slug);
        refuseConfigManaged(current, `page "${slug}"`);
        await assertDomainFree(trx, patch.customDomain, slug);
        await updateStored(
          trx,
          current.id,
          {
            ...(patch.title !== undefined ? { title: patch.title } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
            ...(patch.customDomain !== undefined ? { customDomain: patch.customDomain } : {}),
            ...(patch.aiPolicy !== undefined ? { aiPolicy: patch.aiPolicy } : {}),
            ...(patch.password !== undefined ? { passwordHash: patch.password === null ? null : hashPassword(patch.password) } : {}),
          },
          now,
        );
        return (await findPageBySlug(trx, slug)) ?? current;
      }),
    `the custom domain ${patch.customDomain} is already used by another page`,
  );
  bus.publish({ type: 'page.changed', at: now, pageId: page.id });
  return pageView(page);
}
