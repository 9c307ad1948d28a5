// Config sync took over an organization made through a sign-up or the API: said in its audit log, with who keeps access.
import type { Role } from '../../domain/account.js';
import { recordAudit } from '../audit/record.js';
import type { ServiceContext } from '../context.js';

export interface AdoptedOrganization {
  members: { email: string; role: Role }[];
  activeApiKeys: number;
}

/** Says in the organization's audit log that the file took it over, and who keeps access to it (the answer tells the operator). */
export async function recordAdoption(ctx: ServiceContext & { organizationId: string }): Promise<AdoptedOrganization> {
  const memberships = await ctx.store.memberships.listByOrganization(ctx.organizationId);
  const emails = new Map(
    (await ctx.store.users.listByIds(memberships.map((m) => m.userId))).map((u) => [u.id, u.email]),
  );
  const members = memberships.map((m) => ({ email: emails.get(m.userId) ?? m.userId, role: m.role }));
  const activeApiKeys = await ctx.store.apiKeys.countActive(ctx.organizationId);
  const organization = await ctx.store.organizations.findById(ctx.organizationId);
  await recordAudit(
    { ...ctx, actor: { kind: 'system', name: 'config' } },
    {
      action: 'organization.adopt',
      id: ctx.organizationId,
      label: organization?.key ?? null,
      detail: { members: members.length, activeApiKeys },
    },
  );
  return { members, activeApiKeys };
}
