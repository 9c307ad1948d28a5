// Which names a page may claim, and what a TXT answer proves.
import { describe, expect, it } from 'vitest';
import {
  baseHostOf,
  describeTxtAnswer,
  domainClaimProblem,
  normalizeHost,
  reservedDomainProblem,
  verificationOutcome,
} from './custom-domain.js';
import { pageFields } from './page.js';

describe('custom domains', () => {
  it('normalizes a Host the way pages are looked up: case, port, trailing dot, IPv6 brackets', () => {
    expect(normalizeHost('Status.Example.COM.:8443')).toBe('status.example.com');
    expect(normalizeHost('[::1]:80')).toBe('::1');
    expect(baseHostOf('https://Warden.Example.com:8443/base')).toBe('warden.example.com');
    expect(baseHostOf('')).toBeUndefined();
  });

  it('never lets localhost or an IP address be claimed', () => {
    for (const name of [
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '127.0.0.1',
      '10.1.2.3',
      '0x7f000001',
      'status.0x1f',
      '1.2.3',
      '::1',
      '[fe80::1]',
      '::ffff:127.0.0.1',
    ])
      expect(reservedDomainProblem(name), name).toBeDefined();
    for (const name of [
      'status.example.com',
      'localhost.example.com',
      '0xbad.cafe',
      '1.example.com',
      'status.acme.test',
    ])
      expect(reservedDomainProblem(name), name).toBeUndefined();
  });

  it('never lets the service’s own host be claimed', () => {
    expect(domainClaimProblem('warden.example.com', 'https://WARDEN.example.com')).toContain('own host');
    expect(domainClaimProblem('status.example.com', 'https://warden.example.com')).toBeUndefined();
    expect(domainClaimProblem('status.example.com', undefined)).toBeUndefined();
  });

  it('stores domains normalized and refuses reserved ones with one message each', () => {
    expect(pageFields.customDomain.parse(' Status.Example.com. ')).toBe('status.example.com');
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const parsed = pageFields.customDomain.safeParse(name);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues).toHaveLength(1);
    }
  });

  it('is verified only by a record holding the token exactly; DNS not answering proves nothing either way', () => {
    expect(verificationOutcome({ records: ['v=spf1', 'wdv_token'] }, 'wdv_token')).toBe('verified');
    expect(verificationOutcome({ records: ['wdv_token2'] }, 'wdv_token')).toBe('missing');
    expect(verificationOutcome({ records: [] }, 'wdv_token')).toBe('missing');
    expect(verificationOutcome({ error: 'ESERVFAIL' }, 'wdv_token')).toBe('unreachable');
    expect(describeTxtAnswer('_warden.x.test', { records: [] })).toBe('_warden.x.test has no TXT record');
    expect(describeTxtAnswer('_warden.x.test', { records: Array.from({ length: 7 }, (_, i) => `r${i}`) })).toBe(
      'TXT _warden.x.test holds "r0", "r1", "r2", "r3", "r4" and 2 more, not the page\'s token',
    );
  });
});
