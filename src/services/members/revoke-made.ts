// What a member made that outlives the role they keep: the API keys and pending invitations they made (signed in, or
// through a key of theirs) that would act above that role, and all of them when they leave or are removed. Revoked in
// the member change's transaction, each with its audit entry, and listed in the change's answer: a removed admin's
// write key must not mint them a new invitation.
import { z } from 'zod';
import { apiKeyRole, ROLES, type Role, roleAtLeast } from '../../domain/account.js';
import { API_KEY_SCOPES } from '../../domain/organization.js';
import { recordAudit } from '../audit/record.js';
import { organizationOf, type ServiceContext } from '../context.js';

export const revokedMadeSchema = z.object({
  revokedApiKeys: z
    .array(z.object({ id: z.string(), name: z.string(), prefix: z.string(), scope: z.enum(API_KEY_SCOPES) }))
    .describe(
      'The API keys this member made that stopped working now: all of them on removal, those above the new role on a role change.',
    ),
  revokedInvitations: z
    .array(z.object({ id: z.string(), email: z.string().nullable(), role: z.enum(ROLES) }))
    .describe(
      'Their pending invitations withdrawn now, by the same rule (an invitation acts with the role it offers).',
    ),
});

export type RevokedMade = z.infer<typeof revokedMadeSchema>;

/** Why: the member change whose entry the revocations follow in the audit log. */
type Because = 'member.remove' | 'member.update';

/** `kept`: the member's new role, or null when they leave the organization. */
export async function revokeMadeAbove(
  ctx: ServiceContext,
  userId: string,
  kept: Role | null,
  because: Because,
): Promise<RevokedMade> {
  const organizationId = organizationOf(ctx);
  const now = ctx.clock.now();
  const above = (role: Role) => kept === null || !roleAtLeast(kept, role);
  const scopes = API_KEY_SCOPES.filter((scope) => above(apiKeyRole(scope)));
  const keys = await ctx.store.apiKeys.revokeMadeBy(organizationId, userId, scopes, now);
  for (const key of keys)
    await recordAudit(ctx, {
      action: 'api-key.revoke',
      id: key.id,
      label: key.name,
      detail: { scope: key.scope, madeBy: userId, because },
    });
  const invitations = (await ctx.store.invitations.listPending(organizationId)).filter(
    (i) => i.createdBy === userId && i.expiresAt > now && above(i.role),
  );
  const withdrawn = [];
  for (const invitation of invitations) {
    if (!(await ctx.store.invitations.revoke(organizationId, invitation.id, now))) continue;
    await recordAudit(ctx, {
      action: 'invitation.revoke',
      id: invitation.id,
      label: invitation.email,
      detail: { role: invitation.role, madeBy: userId, because },
    });
    withdrawn.push({ id: invitation.id, email: invitation.email, role: invitation.role });
  }
  return {
    revokedApiKeys: keys.map((key) => ({ id: key.id, name: key.name, prefix: key.prefix, scope: key.scope })),
    revokedInvitations: withdrawn,
  };
}
