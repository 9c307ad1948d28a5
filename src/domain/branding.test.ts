// The accent colour's contrast rule: checked against the background links are really drawn on.
import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, accentColorSchema, accentForDark, contrastRatio, DARK_BACKGROUND } from './branding.js';

describe('accentColorSchema', () => {
  it('refuses a colour that passes on white cards but not on the page around them, where the chart range links sit', () => {
    // Discord's blurple: 4.61:1 on white, 4.32:1 on #f6f8fa — links on the page background would fail AA.
    expect(contrastRatio('#5865f2', '#ffffff')).toBeGreaterThan(AA_CONTRAST);
    const refused = accentColorSchema.safeParse('#5865f2');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(
      /^contrast 4\.3\d:1 against the page's light background \(#f6f8fa\) is below WCAG AA/,
    );
    expect(accentColorSchema.parse('#4752C4')).toBe('#4752c4');
    expect(accentColorSchema.parse('#06c')).toBe('#0066cc');
  });

  it('lightens an accent for the dark theme until it reaches AA there', () => {
    for (const accent of ['#4752c4', '#5b2a86', '#000000', '#8a1c1c']) {
      expect(contrastRatio(accentForDark(accent), DARK_BACKGROUND)).toBeGreaterThanOrEqual(AA_CONTRAST);
    }
  });
});
