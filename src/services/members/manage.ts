// The organization's members: list them, change a role, remove one. Admins manage members; only owners make or
// unmake owners; anyone may leave; the last owner can neither be demoted nor removed, so nobody is locked out. What a
// member made above the role they keep (API keys, invitations) is revoked with the change (revoke-made.ts).
import { z } from 'zod';
import { type Membership, ROLES, type Role, roleAtLeast } from '../../domain/account.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { organizationOf, parseInput, type ServiceContext, withTransaction } from '../context.js';
import { callerRole } from '../organizations/current.js';
import { type RevokedMade, revokeMadeAbove } from './revoke-made.js';
import { type MemberView, memberView } from './view.js';

/** A member as the change left them (a removed one as they were), and what was revoked with it. */
export type MemberChange = MemberView & RevokedMade;

export const memberRefSchema = z.object({ userId: reference() });
export const memberPatchSchema = z
  .object({ role: z.enum(ROLES).describe('viewer, editor, admin or owner (only owners give or take owner).') })
  .strict();

export async function listMembers(ctx: ServiceContext): Promise<MemberView[]> {
  const memberships = await ctx.store.memberships.listByOrganization(organizationOf(ctx));
  const users = new Map((await ctx.store.users.listByIds(memberships.map((m) => m.userId))).map((u) => [u.id, u]));
  return memberships.flatMap((m) => {
    const user = users.get(m.userId);
    return user ? [memberView(m, user)] : [];
  });
}

export async function changeMemberRole(
  ctx: ServiceContext,
  input: z.input<typeof memberRefSchema> & z.input<typeof memberPatchSchema>,
): Promise<MemberChange> {
  const { userId } = parseInput(memberRefSchema, { userId: input.userId });
  const { role } = parseInput(memberPatchSchema, { role: input.role });
  return withTransaction(ctx, async (tx) => {
    const member = await requireMember(tx, userId);
    if ((member.role === 'owner' || role === 'owner') && member.role !== role) assertOwner(tx, 'make or unmake owners');
    if (member.role === 'owner' && role !== 'owner') await assertNotLastOwner(tx, member, 'demoted');
    if (member.role === role) return { ...(await describe(tx, member)), revokedApiKeys: [], revokedInvitations: [] };
    await tx.store.memberships.put({ ...member, role });
    const revoked = await revokeMadeAbove(tx, member.userId, role, 'member.update');
    return { ...(await describe(tx, { ...member, role })), ...revoked };
  });
}

/** Removes a member: admins remove others (owners only by owners); every member may remove themselves. */
export async function removeMember(ctx: ServiceContext, input: z.input<typeof memberRefSchema>): Promise<MemberChange> {
  const { userId } = parseInput(memberRefSchema, input);
  const self = ctx.actor?.kind === 'user' && ctx.actor.userId === userId;
  const role = callerRole(ctx);
  if (!self && !roleAtLeast(role, 'admin'))
    throw new ForbiddenError(
      `This needs the admin role or above; you are ${role === 'editor' ? 'an' : 'a'} ${role} of this organization (you may only leave it yourself).`,
    );
  return withTransaction(ctx, async (tx) => {
    const member = await requireMember(tx, userId);
    if (member.role === 'owner' && !self) assertOwner(tx, 'remove owners');
    if (member.role === 'owner') await assertNotLastOwner(tx, member, 'removed');
    const view = await describe(tx, member);
    await tx.store.memberships.delete(member.organizationId, member.userId);
    // Leaving too: a key or an invitation they made must not let them back in.
    return { ...view, ...(await revokeMadeAbove(tx, member.userId, null, 'member.remove')) };
  });
}

async function requireMember(ctx: ServiceContext, userId: string): Promise<Membership> {
  const member = await ctx.store.memberships.find(organizationOf(ctx), userId);
  if (!member) throw new NotFoundError('member', userId);
  return member;
}

function assertOwner(ctx: ServiceContext, what: string): void {
  if (callerRole(ctx) !== 'owner') throw new ForbiddenError(`Only owners ${what}.`);
}

/** Two owners demoting each other at once must not leave none: the count is read under the organization's lock. */
async function assertNotLastOwner(ctx: ServiceContext, member: Membership, what: string): Promise<void> {
  await ctx.store.exclusive(`warden:owners:${member.organizationId}`);
  if ((await ctx.store.memberships.countByRole(member.organizationId, 'owner')) <= 1)
    throw new ConflictError(`the last owner of an organization cannot be ${what}: make another member owner first`);
}

async function describe(ctx: ServiceContext, member: Membership & { role: Role }): Promise<MemberView> {
  const [user] = await ctx.store.users.listByIds([member.userId]);
  return memberView(member, user ?? { id: member.userId, email: '', name: '' });
}
