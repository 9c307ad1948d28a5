// Signed-in users for tests: a user with a role in an organization and a live session, made through the store and
// the real session service, so a test can call the organization API (or open the dashboard) as that user.
import type { Role } from '../src/domain/account.js';
import { newId } from '../src/domain/ids.js';
import { hashPassword } from '../src/domain/passwords.js';
import { issueSession } from '../src/services/accounts/issue-session.js';
import type { ServiceContext } from '../src/services/context.js';

export interface SignedInUser {
  userId: string;
  email: string;
  password: string;
  /** The session token: the cookie's value. */
  token: string;
  /** `warden_session=<token>`, for a Cookie header (plain http). */
  cookie: string;
}

/**
 * A new user (email `<role>-<random>@example.com`, password `correct horse battery`, the address verified unless
 * `verified: false`) who is `role` in each organization given.
 */
export async function signedInUser(
  ctx: ServiceContext,
  memberships: { organizationId: string; role: Role }[],
  options: { email?: string; name?: string; verified?: boolean } = {},
): Promise<SignedInUser> {
  const now = ctx.clock.now();
  const userId = newId('usr');
  const email = options.email ?? `${memberships[0]?.role ?? 'nobody'}-${userId.slice(4, 12)}@example.com`;
  const password = 'correct horse battery';
  const emailVerifiedAt = options.verified === false ? null : now;
  await ctx.store.users.insert(
    {
      id: userId,
      email,
      name: options.name ?? email.split('@')[0] ?? email,
      passwordHash: await hashPassword(password),
      emailVerifiedAt,
    },
    now,
  );
  for (const m of memberships)
    await ctx.store.memberships.put({ organizationId: m.organizationId, userId, role: m.role, createdAt: now });
  const { token } = await issueSession(ctx, { userId, userAgent: 'vitest' });
  return { userId, email, password, token, cookie: `warden_session=${token}` };
}
