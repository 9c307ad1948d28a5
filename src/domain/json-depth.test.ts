import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, textNestsDeeper, valueNestsDeeper } from './json-depth.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON nesting depth, measured without recursion', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(textNestsDeeper(nested(JSON_MAX_DEPTH))).toBe(false);
    expect(textNestsDeeper(nested(JSON_MAX_DEPTH + 1))).toBe(true);
    expect(textNestsDeeper(`{"a":${nested(3)}}`, 3)).toBe(true);
    expect(textNestsDeeper(`{"a":${nested(2)}}`, 3)).toBe(false);
    expect(textNestsDeeper(JSON.stringify({ s: '['.repeat(1000), t: 'a\\"[[[[' }))).toBe(false);
    expect(textNestsDeeper(JSON.stringify(['\\', '['.repeat(500)]))).toBe(false);
  });

  it('agrees on parsed values, and copes with a million levels where JSON.stringify overflows the stack', () => {
    expect(valueNestsDeeper(JSON.parse(nested(JSON_MAX_DEPTH)))).toBe(false);
    expect(valueNestsDeeper(JSON.parse(nested(JSON_MAX_DEPTH + 1)))).toBe(true);
    expect(valueNestsDeeper({ a: [1, { b: 'x' }], c: null }, 3)).toBe(false);
    expect(valueNestsDeeper({ a: [1, { b: {} }] }, 3)).toBe(true);
    expect(valueNestsDeeper('scalar', 0)).toBe(false);
    const deep = JSON.parse(nested(1_000_000));
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(valueNestsDeeper(deep)).toBe(true);
    expect(textNestsDeeper(nested(1_000_000))).toBe(true);
  });
});
