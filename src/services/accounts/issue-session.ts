// Signs a user in: a new session (the token returned once, for the cookie; the store keeps its hash), trimming the
// user's oldest sessions past the cap. Every way in — password, setup link, invitation, OpenID Connect — ends here.
import { ACCOUNT_LIMITS, type Session } from '../../domain/account.js';
import { newId } from '../../domain/ids.js';
import { generateSecret, hashSecret } from '../../domain/tokens.js';
import type { ServiceContext } from '../context.js';

/** Longest user agent and client address kept with a session (what the owner's list of sessions shows). */
const USER_AGENT_MAX_CHARS = 300;
const ADDRESS_MAX_CHARS = 64;

export async function issueSession(
  ctx: ServiceContext,
  input: { userId: string; userAgent?: string | undefined; address?: string | undefined },
): Promise<{ token: string; session: Session }> {
  const now = ctx.clock.now();
  const token = generateSecret('session');
  const session: Session = {
    id: newId('ses'),
    userId: input.userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + ACCOUNT_LIMITS.sessionLifetimeMs,
    userAgent: input.userAgent?.slice(0, USER_AGENT_MAX_CHARS) ?? null,
    address: input.address?.slice(0, ADDRESS_MAX_CHARS) ?? null,
    // Every way in is a proof: a password (and code), a one-time link, or the OpenID Connect provider just now.
    provenAt: now,
  };
  await ctx.store.transaction(async (store) => {
    await store.sessions.insert({ ...session, hash: hashSecret(token) });
    await store.sessions.trim(input.userId, ACCOUNT_LIMITS.sessionsPerUser);
  });
  return { token, session };
}
