// A user's own sessions: the list (to recognise a browser they no longer use), ending one, and signing out.
import { z } from 'zod';
import type { Session } from '../../domain/account.js';
import { NotFoundError } from '../../domain/errors.js';
import { reference } from '../../domain/fields.js';
import { parseInput, type ServiceContext } from '../context.js';

export const sessionViewSchema = z.object({
  id: z.string(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int().describe('Updated at most once a minute.'),
  expiresAt: z.number().int().describe('Moves forward with each use.'),
  userAgent: z.string().nullable(),
  address: z.string().nullable().describe('The client address the session was opened from.'),
  current: z.boolean().describe('The session of this very request.'),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** The user's unexpired sessions, most recently used first; `current` marks the caller's. */
export async function listSessions(
  ctx: ServiceContext,
  { userId, currentSessionId }: { userId: string; currentSessionId: string },
): Promise<SessionView[]> {
  const sessions = await ctx.store.sessions.listByUser(userId, ctx.clock.now());
  return sessions.map((s: Session) => ({
    id: s.id,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
    userAgent: s.userAgent,
    address: s.address,
    current: s.id === currentSessionId,
  }));
}

const revokeInput = z.object({ id: reference() });

/** Ends one of the user's sessions (another user's is "not found", like one that does not exist). */
export async function revokeSession(ctx: ServiceContext, input: { userId: string; id: string }): Promise<void> {
  const { id } = parseInput(revokeInput, input);
  if (!(await ctx.store.sessions.delete(input.userId, id))) throw new NotFoundError('session', id);
}

/** Signs out: the session ends at once, on every process (they read sessions from the store). */
export async function logout(
  ctx: ServiceContext,
  { userId, sessionId }: { userId: string; sessionId: string },
): Promise<void> {
  await ctx.store.sessions.delete(userId, sessionId);
}
