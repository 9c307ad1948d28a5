// Checks a session cookie's token and records its use: the session slides forward (at most once a minute, so reads stay cheap).
import { ACCOUNT_LIMITS, type Session, type User } from '../../domain/account.js';
import { hashSecret, isSecretOfKind, secretMatchesHash } from '../../domain/tokens.js';
import type { ServiceContext } from '../context.js';

/** The session and its user, or null when the token is malformed, unknown or expired. */
export async function authenticateSession(
  ctx: ServiceContext,
  { token }: { token: string },
): Promise<{ session: Session; user: User } | null> {
  if (!isSecretOfKind('session', token)) return null;
  const now = ctx.clock.now();
  const found = await ctx.store.sessions.findActiveByHash(hashSecret(token), now);
  if (!found || !secretMatchesHash(token, found.hash)) return null;
  const stored = await ctx.store.users.findById(found.userId);
  if (!stored) return null;
  const { hash: _hash, ...session } = found;
  if (now - session.lastSeenAt >= ACCOUNT_LIMITS.sessionTouchResolutionMs) {
    session.lastSeenAt = now;
    session.expiresAt = now + ACCOUNT_LIMITS.sessionLifetimeMs;
    await ctx.store.sessions.touch(session.id, now, session.expiresAt);
  }
  const { passwordHash: _p, totpSecret: _t, ...user } = stored;
  return { session, user };
}
