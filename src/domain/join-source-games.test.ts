import { describe, expect, it } from 'vitest';
import { SEPARATE_QUERY_PORT, SOURCE_GAME_OLD_IDS, SOURCE_GAME_PORTS } from './join-source-games.js';

interface GameEntry {
  options?: { port?: number; port_query?: number; protocol?: string };
  extra?: { old_id?: string };
}

describe('the Source games list', () => {
  it('matches the A2S games of the installed gamedig package', async () => {
    const { games } = (await import('gamedig' as string)) as { games: Record<string, GameEntry> };
    const valve = Object.entries(games).filter(([, game]) => game.options?.protocol === 'valve');
    expect(Object.keys(SOURCE_GAME_PORTS).sort()).toEqual(valve.map(([id]) => id).sort());
    for (const [id, game] of valve) {
      expect(SOURCE_GAME_PORTS[id], id).toBe(game.options?.port ?? null);
      const apart = game.options?.port_query !== undefined && game.options.port_query !== game.options.port;
      expect(SEPARATE_QUERY_PORT.has(id), id).toBe(apart);
      if (game.extra?.old_id) expect(SOURCE_GAME_OLD_IDS[game.extra.old_id]).toBe(id);
    }
  });
});
