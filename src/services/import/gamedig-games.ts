// GameDig's game list, for importers that meet GameDig game ids: which protocol a game speaks and which port it asks.

import { importPackage } from '../../runtime/launcher.js';
import type { GamedigGame, GamedigLookup } from './uptime-kuma-monitors.js';

interface GameEntry {
  options?: { port?: number; port_query?: number; port_query_offset?: number | number[]; protocol?: string };
  extra?: { old_id?: string };
}

/** GameDig 5's games, by their id and by the GameDig 4 id they replaced. */
export async function loadGamedigGames(): Promise<GamedigLookup> {
  // gamedig 5 ships no type declarations; GameEntry above describes the part used here.
  const { games } = await importPackage<{ games: Record<string, GameEntry> }>('gamedig');
  return gamedigLookup(games);
}

export function gamedigLookup(games: Record<string, GameEntry>): GamedigLookup {
  const byId = new Map<string, GamedigGame>();
  const byOldId = new Map<string, GamedigGame>();
  for (const [id, entry] of Object.entries(games)) {
    const o = entry.options ?? {};
    const offset = Array.isArray(o.port_query_offset) ? o.port_query_offset[0] : o.port_query_offset;
    const game: GamedigGame = {
      id,
      protocol: o.protocol ?? id,
      queryPortDiffers: o.port_query !== undefined || (offset !== undefined && offset !== 0),
      defaultQueryPort: o.port_query ?? (o.port === undefined ? undefined : o.port + (offset ?? 0)),
    };
    byId.set(id, game);
    if (entry.extra?.old_id) byOldId.set(entry.extra.old_id, game);
  }
  return (id) => byId.get(id) ?? byOldId.get(id);
}
