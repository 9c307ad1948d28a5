// What the forms share: fixed-format times and counts, clean user text, components by group.
import { describe, expect, it } from 'vitest';
import { formatCount, groupComponents, isoTime, plainText } from './page-wording.js';

describe('page wording', () => {
  it('writes times in UTC whatever the server zone, and counts with commas whatever its locale', () => {
    expect(isoTime(Date.UTC(2026, 10, 20, 4, 5, 9, 123))).toBe('2026-11-20T04:05:09Z');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('cleans user text of control characters and Minecraft colour codes', () => {
    expect(plainText('§aGreen§r  and\u0000\n plain')).toBe('Green and plain');
    expect(plainText(' a \r\n\r\n\r\n b ', { multiline: true })).toBe('a\n\nb');
  });

  it('bunches components by group in order of first appearance', () => {
    const groups = groupComponents([
      { id: 1, group: 'B' },
      { id: 2, group: null },
      { id: 3, group: 'A' },
      { id: 4, group: 'B' },
      { id: 5, group: '' },
    ]);
    expect(groups.map((g) => [g.group, g.components.map((c) => c.id)])).toEqual([
      ['B', [1, 4]],
      [null, [2, 5]],
      ['A', [3]],
    ]);
  });
});
