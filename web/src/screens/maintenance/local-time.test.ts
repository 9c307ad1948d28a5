// The datetime-local round trip is exact to the minute, and anything else is no time.
import { describe, expect, it } from 'vitest';
import { formatRange, fromLocalInput, toLocalInput } from './local-time';

describe('datetime-local times', () => {
  it('round-trips an instant to the minute in the browser’s time zone', () => {
    const at = Date.UTC(2026, 4, 1, 20, 30);
    expect(fromLocalInput(toLocalInput(at))).toBe(at);
    expect(toLocalInput(at)).toMatch(/^2026-05-0[12]T\d{2}:30$/);
  });

  it('refuses empty or malformed values', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2026-05-01')).toBeNull();
    expect(fromLocalInput('2026-13-45T99:99')).toBeNull();
  });

  it('shows a window with its time zone', () => {
    const text = formatRange(Date.UTC(2026, 4, 1, 20, 0), Date.UTC(2026, 4, 1, 22, 0));
    expect(text).toMatch(/2026/);
    expect(text).toMatch(/GMT|UTC|[A-Z]{3,4}/);
  });
});
