import { describe, expect, it } from 'vitest';
import { clientAddress, clientKey } from './client-address.js';

describe('client address', () => {
  it('is the peer unless a trusted proxy names the client', () => {
    expect(clientAddress('10.0.0.2', '203.0.113.9', false)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'forged, 203.0.113.9', true)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.2', undefined, true)).toBe('10.0.0.2');
  });
  it('unwraps IPv4-mapped addresses and keys IPv6 by its /64', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
