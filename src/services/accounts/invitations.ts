// An invitation link (wdi_…) seen from the invited side: what it offers (a public preview, so the page can say "Join
// Acme as an editor"), and accepting it, once, as the user it names — or anyone, when it names no email.
import { z } from 'zod';
import { ACCOUNT_LIMITS, type Invitation, ROLES, roleAtLeast, type User } from '../../domain/account.js';
import { UnusableLinkError } from '../../domain/account-errors.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors.js';
import type { Organization } from '../../domain/organization.js';
import { displayPrefix, hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import { recordAudit } from '../audit/record.js';
import { parseInput, type ServiceContext, withTransaction } from '../context.js';
import { linkTokenField } from './account-fields.js';
import { type Account, describeAccount } from './view.js';

export const invitationPreviewSchema = z.object({
  organization: z.object({ key: z.string(), name: z.string() }),
  role: z.enum(ROLES),
  email: z.string().nullable().describe('Who may accept it; null: whoever holds the link.'),
  expiresAt: z.number().int(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

const tokenInput = z.object({ token: linkTokenField().describe('The invitation token (wdi_…) from the link.') });
export const acceptInvitationInput = tokenInput.strict();

/** What a usable invitation offers; 404 for a token Warden never issued, 410 for one used, revoked or expired. */
export async function previewInvitation(ctx: ServiceContext, input: { token: string }): Promise<InvitationPreview> {
  const { token } = parseInput(tokenInput, input);
  const { invitation, organization } = await usableInvitation(ctx, { token });
  return {
    organization: { key: organization.key, name: organization.name },
    role: invitation.role,
    email: invitation.email,
    expiresAt: invitation.expiresAt,
  };
}

/** The signed-in user joins the invitation's organization with its role (keeping a stronger role they already hold). */
export async function acceptInvitation(
  ctx: ServiceContext,
  input: { token: string; userId: string; sessionId?: string | undefined },
): Promise<Account> {
  const { token } = parseInput(tokenInput, { token: input.token });
  await withTransaction(ctx, async (tx) => {
    const user = await tx.store.users.findById(input.userId);
    if (!user) throw new NotFoundError('user', input.userId);
    await joinByInvitation(tx, { token }, user, input.sessionId ?? null);
  });
  return describeAccount(ctx, { userId: input.userId });
}

/**
 * Inside a transaction: uses the invitation for `user` (checked: its state, its email — verified — and the caps) and
 * makes them a member. Also how a sign-up with an invitation joins.
 */
export async function joinByInvitation(
  ctx: ServiceContext,
  ref: InvitationRef,
  user: User,
  sessionId: string | null,
): Promise<Organization> {
  const { invitation, organization } = await usableInvitation(ctx, ref);
  if (invitation.email !== null && invitation.email !== user.email)
    throw new ForbiddenError(
      'This invitation is for another email address: sign in with that one (or ask for an invitation to yours).',
    );
  // An address anyone could have typed into their profile proves nothing: only one shown to be theirs.
  if (invitation.email !== null && user.emailVerifiedAt === null)
    throw new ForbiddenError(
      `This invitation is for ${invitation.email}, and your account has not confirmed that address yet: confirm it (Account → Email mails you a link), then accept the invitation.`,
    );
  const existing = await ctx.store.memberships.find(organization.id, user.id);
  if (!existing) {
    if (
      (await ctx.store.memberships.listByOrganization(organization.id)).length >= ACCOUNT_LIMITS.membersPerOrganization
    )
      throw new ConflictError(
        `The organization has ${ACCOUNT_LIMITS.membersPerOrganization} members, the most it may have.`,
      );
    if ((await ctx.store.memberships.listByUser(user.id)).length >= ACCOUNT_LIMITS.organizationsPerUser)
      throw new ConflictError(`You belong to ${ACCOUNT_LIMITS.organizationsPerUser} organizations, the most one may.`);
  }
  const now = ctx.clock.now();
  if (!(await ctx.store.invitations.accept(invitation.id, user.id, now)))
    throw new UnusableLinkError('invitation-used', 'This invitation was just used, revoked or has expired.');
  // An invitation never demotes: a member invited again keeps the stronger of the two roles.
  const role = existing && roleAtLeast(existing.role, invitation.role) ? existing.role : invitation.role;
  await ctx.store.memberships.put({
    organizationId: organization.id,
    userId: user.id,
    role,
    createdAt: existing?.createdAt ?? now,
  });
  await recordAudit(
    {
      ...ctx,
      organizationId: organization.id,
      actor: { kind: 'user', userId: user.id, name: user.name || user.email, role, sessionId },
    },
    { action: 'invitation.accept', id: invitation.id, label: user.email, detail: { role } },
  );
  return organization;
}

/** An invitation by the token of its link, or by the hash of that token (what a sign-up waiting for its mail keeps). */
export type InvitationRef = { token: string } | { hash: string };

/**
 * The invitation and its organization, while it can be used: 404 for a token Warden never issued, 410 (with why) for
 * one used, revoked or expired.
 */
export async function usableInvitation(
  ctx: ServiceContext,
  ref: InvitationRef,
): Promise<{ invitation: Invitation; organization: Organization }> {
  const shown = 'token' in ref ? `${displayPrefix(ref.token)}…` : 'from the sign-up link';
  let found: (Invitation & { hash: string }) | undefined;
  if ('hash' in ref) found = await ctx.store.invitations.findByHash(ref.hash);
  else if (isSecretOfKind('invitation', ref.token)) {
    found = await ctx.store.invitations.findByHash(hashSecret(ref.token));
    if (found && !secretMatchesHash(ref.token, found.hash)) found = undefined;
  }
  if (!found) throw new NotFoundError('invitation', shown);
  const { hash: _hash, ...invitation } = found;
  if (invitation.acceptedAt !== null)
    throw new UnusableLinkError('invitation-used', 'This invitation was used already; ask for a new one.');
  if (invitation.revokedAt !== null)
    throw new UnusableLinkError('invitation-revoked', 'This invitation was withdrawn; ask for a new one.');
  if (invitation.expiresAt <= ctx.clock.now())
    throw new UnusableLinkError('invitation-expired', 'This invitation has expired; ask for a new one.');
  const organization = await ctx.store.organizations.findById(invitation.organizationId);
  if (!organization) throw new NotFoundError('invitation', shown);
  return { invitation, organization };
}
