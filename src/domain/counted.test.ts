import { describe, expect, it } from 'vitest';
import { counted } from './counted.js';

describe('counted', () => {
  it('names one in the singular and every other count in the plural', () => {
    expect(counted(1, 'relay')).toBe('1 relay');
    expect(counted(0, 'relay')).toBe('0 relays');
    expect(counted(2, 'notification channel')).toBe('2 notification channels');
  });

  it('takes an irregular plural', () => {
    expect(counted(3, 'day', 'days')).toBe('3 days');
    expect(counted(2, 'entry', 'entries')).toBe('2 entries');
  });
});
