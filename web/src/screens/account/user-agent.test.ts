// Sessions are told apart by browser and system, not by a raw User-Agent string.
import { describe, expect, it } from 'vitest';
import { describeAgent } from './user-agent';

describe('describeAgent', () => {
  it('names the browser and the system of common user agents', () => {
    expect(describeAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox on Linux',
    );
    expect(
      describeAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0',
      ),
    ).toBe('Edge on Windows');
    expect(
      describeAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(
      describeAgent(
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(describeAgent('curl/8.5.0')).toBe('curl');
  });

  it('falls back to the string itself, shortened, or says it is unknown', () => {
    expect(describeAgent('vitest')).toBe('vitest');
    expect(describeAgent('x'.repeat(100))).toHaveLength(60);
    expect(describeAgent(null)).toBe('Unknown browser');
  });
});
