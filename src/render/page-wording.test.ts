// The shared wording of the page forms: uptime percentages that never round up to 100%, fixed-format times and counts.
import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatPlayers, formatUptime, groupComponents, humanTime, isoTime, plainText } from './page-wording.js';

describe('page wording', () => {
  it('formats uptime with two decimals, three when two would round up to 100%, and "no data" for null', () => {
    expect(formatUptime(1)).toBe('100.00%');
    expect(formatUptime(0.99926)).toBe('99.93%');
    expect(formatUptime(0.5)).toBe('50.00%');
    expect(formatUptime(0.99996)).toBe('99.996%');
    expect(formatUptime(0.9999999)).toBe('99.999%');
    expect(formatUptime(1 - 1e-13)).toBe('99.999%');
    expect(formatUptime(0)).toBe('0.00%');
    expect(formatUptime(null)).toBe('no data');
    expect(formatUptime(Number.NaN)).toBe('no data');
  });

  it('writes times in UTC whatever the server zone', () => {
    const at = Date.UTC(2026, 10, 20, 4, 5, 9, 123);
    expect(isoTime(at)).toBe('2026-11-20T04:05:09Z');
    expect(humanTime(at)).toBe('20 Nov 2026, 04:05 UTC');
  });

  it('formats durations, counts and players', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(42 * 60_000)).toBe('42 min');
    expect(formatDuration(135 * 60_000)).toBe('2 h 15 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000)).toBe('3 d 4 h');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatPlayers(1234, 2000)).toBe('1,234 / 2,000 players');
    expect(formatPlayers(1, null)).toBe('1 player');
    expect(formatPlayers(null, 100)).toBeNull();
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
