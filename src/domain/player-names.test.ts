// The names of who is online: cleaned of control characters, clipped, capped, and kept out of history.
import { describe, expect, it } from 'vitest';
import {
  cleanPlayerName,
  cleanPlayerNames,
  PLAYER_NAMES_LIMITS,
  playerNamesOf,
  withoutPlayerNames,
} from './player-names.js';

describe('player names', () => {
  it('removes control and direction characters and collapses spaces', () => {
    expect(cleanPlayerName('  Al\u0000ice\u202e  \t\nthe\u200b  Bold ')).toBe('Alice the Bold');
    expect(cleanPlayerName('\u0007\u0008')).toBe('');
  });

  it('clips a name to 64 characters, counting an emoji as one', () => {
    const long = '🎮'.repeat(200);
    expect([...cleanPlayerName(long)]).toHaveLength(PLAYER_NAMES_LIMITS.nameChars);
    expect(cleanPlayerName('x'.repeat(65))).toBe('x'.repeat(64));
  });

  it('keeps at most 100 names, skipping what is not a name', () => {
    const names = cleanPlayerNames([42, null, '', '   ', ...Array.from({ length: 500 }, (_, n) => `player${n}`)]);
    expect(names).toHaveLength(100);
    expect(names[0]).toBe('player0');
    expect(names.at(-1)).toBe('player99');
  });

  it('stops at 8,000 characters in all, whatever each name holds', () => {
    const names = cleanPlayerNames(Array.from({ length: 100 }, () => '😀'.repeat(64)));
    expect(names.join('').length).toBeLessThanOrEqual(PLAYER_NAMES_LIMITS.totalChars);
    expect(names.length).toBe(62);
  });

  it('keeps markup as text: escaping is for whoever shows it', () => {
    expect(cleanPlayerNames(['<script>alert(1)</script>'])).toEqual(['<script>alert(1)</script>']);
  });

  it('reads the names of a result, cleaning them again', () => {
    expect(playerNamesOf({ playerNames: ['Ann\u0000', 7, 'Bob'] })).toEqual(['Ann', 'Bob']);
    expect(playerNamesOf({ players: 3 })).toBeNull();
    expect(playerNamesOf(null)).toBeNull();
  });

  it('leaves the names out of what history keeps', () => {
    expect(withoutPlayerNames({ players: 2, playerNames: ['Ann', 'Bob'] })).toEqual({ players: 2 });
    const plain = { players: 2 };
    expect(withoutPlayerNames(plain)).toBe(plain);
  });
});
