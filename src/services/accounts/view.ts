// What the dashboard sees of an account: the user (never a hash or secret) and their organizations with their roles.
import { z } from 'zod';
import { ROLES, type Session, type User } from '../../domain/account.js';
import { NotFoundError } from '../../domain/errors.js';
import type { ServiceContext } from '../context.js';

export const accountUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z
    .boolean()
    .describe(
      'Whether the address was shown to be the user’s (a mailed link followed, an invitation naming it, the operator, the OpenID Connect provider). Invitations naming an email and OpenID Connect trust verified addresses only.',
    ),
  name: z.string(),
  hasPassword: z.boolean().describe('False for a user who signs in only with OpenID Connect.'),
  totpEnabled: z.boolean().describe('Whether signing in needs a TOTP or recovery code.'),
});

export const accountOrganizationSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  role: z.enum(ROLES).describe('The user’s role in the organization: viewer < editor < admin < owner.'),
});

export const accountSchema = z.object({ user: accountUserSchema, organizations: z.array(accountOrganizationSchema) });
export type Account = z.infer<typeof accountSchema>;

/** A new session and the account it signs in: the token goes into the cookie, the rest into the answer. */
export interface SignedIn {
  token: string;
  session: Session;
  account: Account;
}

export function userView(user: User): Account['user'] {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    name: user.name,
    hasPassword: user.hasPassword,
    totpEnabled: user.totpEnabledAt !== null,
  };
}

/** The user and their organizations (by name), as GET /api/v1/auth/me answers. */
export async function describeAccount(ctx: ServiceContext, { userId }: { userId: string }): Promise<Account> {
  const stored = await ctx.store.users.findById(userId);
  if (!stored) throw new NotFoundError('user', userId);
  const memberships = await ctx.store.memberships.listByUser(userId);
  return {
    user: userView(stored),
    organizations: memberships.map((m) => ({
      id: m.organization.id,
      key: m.organization.key,
      name: m.organization.name,
      role: m.role,
    })),
  };
}
