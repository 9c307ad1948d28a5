// The owner deletes the organization with everything it holds, naming its key to confirm; the pages, caches and
// runners of every process drop it at the commit.
import { z } from 'zod';
import { ForbiddenError, ValidationError } from '../../domain/errors.js';
import { assertWritable } from '../../domain/ownership.js';
import { parseInput, type ServiceContext, withTransaction, writerOf } from '../context.js';
import { requireOrganization } from './current.js';

export const organizationDeleteSchema = z
  .object({
    confirm: z.string().max(200).describe("The organization's key, typed again: nothing is deleted without it."),
  })
  .strict();

export async function deleteOrganization(
  ctx: ServiceContext,
  input: z.input<typeof organizationDeleteSchema>,
): Promise<void> {
  const { confirm } = parseInput(organizationDeleteSchema, input);
  if (ctx.actor?.kind !== 'user' || ctx.actor.role !== 'owner')
    throw new ForbiddenError('Only an owner, signed in, deletes an organization.');
  const userId = ctx.actor.userId;
  await withTransaction(ctx, async (tx) => {
    const organization = await requireOrganization(tx);
    if (confirm !== organization.key)
      throw new ValidationError(
        [{ path: 'confirm', message: `expected the organization's key, "${organization.key}"` }],
        'Type the key of the organization to delete it.',
      );
    assertWritable(organization, writerOf(tx), `organization "${organization.key}"`);
    const pages = await dropOrganization(tx, organization.id);
    // Its audit log goes with it: the server's log keeps the deletion.
    tx.logger.info(
      { organization: organization.key, id: organization.id, by: userId, pages: pages.length },
      'organization deleted',
    );
  });
}

/**
 * Deletes an organization with all it holds, in the caller's transaction, and says so: runners, relays and push tokens
 * reload; every page it had is dropped from the caches; channels go from ingest. Returns the pages it had.
 */
export async function dropOrganization(tx: ServiceContext, organizationId: string): Promise<{ id: string }[]> {
  const pages = await tx.store.pages.list(organizationId);
  await tx.store.organizations.delete(organizationId);
  const at = tx.clock.now();
  tx.bus.publish({ type: 'monitors.changed', at, organizationId });
  tx.bus.publish({ type: 'notifications.changed', at, organizationId });
  for (const page of pages) tx.bus.publish({ type: 'page.changed', at, pageId: page.id });
  return pages;
}
