import { describe, expect, it } from 'vitest';
import { goDurationMs } from './gatus-values.js';

describe('Go durations of a Gatus file', () => {
  it('reads every unit Go does, micro in both of its spellings', () => {
    expect(goDurationMs('1h30m')).toBe(5_400_000);
    expect(goDurationMs('250ms')).toBe(250);
    expect(goDurationMs('1.5s')).toBe(1500);
    expect(goDurationMs('500us')).toBe(0.5);
    expect(goDurationMs('500\u00b5s')).toBe(0.5);
    expect(goDurationMs('500\u03bcs')).toBe(0.5);
    expect(goDurationMs('2000ns')).toBe(0.002);
  });

  it('refuses what is not a duration', () => {
    expect(goDurationMs('${INTERVAL}')).toBeUndefined();
    expect(goDurationMs('5 minutes')).toBeUndefined();
    expect(goDurationMs(30)).toBeUndefined();
    expect(goDurationMs(0)).toBe(0);
  });
});
