// What a player wants to know before joining a game server, when its probe knows it: full, password, whitelist, queue.
import { z } from 'zod';

export const JOIN_BADGES = ['full', 'password', 'whitelist', 'queue'] as const;
export type JoinBadgeKind = (typeof JOIN_BADGES)[number];

export const joinBadgeSchema = z.object({
  kind: z
    .enum(JOIN_BADGES)
    .describe(
      'full: players >= maxPlayers; password: a password is needed; whitelist: only listed players; queue: players wait',
    ),
  count: z.number().int().optional().describe('queue: how many players wait'),
});
export type JoinBadge = z.infer<typeof joinBadgeSchema>;

/**
 * The badges of a check's data (probes and pushes name the facts the same way): players/maxPlayers,
 * passwordProtected or password, whitelist or whitelisted, queue (players waiting). An unknown fact makes no badge.
 */
export function joinBadges(data: Record<string, unknown> | null | undefined): JoinBadge[] {
  if (!data) return [];
  const badges: JoinBadge[] = [];
  const players = count(data.players);
  const maxPlayers = count(data.maxPlayers);
  if (players !== undefined && maxPlayers !== undefined && maxPlayers > 0 && players >= maxPlayers)
    badges.push({ kind: 'full' });
  if (data.passwordProtected === true || data.password === true) badges.push({ kind: 'password' });
  if (data.whitelist === true || data.whitelisted === true) badges.push({ kind: 'whitelist' });
  const queue = count(data.queue);
  if (queue !== undefined && queue > 0) badges.push({ kind: 'queue', count: queue });
  return badges;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
