// The address classifier behind the probe-target policy: every refused range, its edges, and the IPv6 forms of IPv4.
import { describe, expect, it } from 'vitest';
import { ipv6Bytes, nonPublicKind } from './address-ranges.js';

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['10.0.0.5', 'a private address'],
    ['10.255.255.255', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.10', 'a private address'],
    ['169.254.0.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['febf:ffff::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.255', 'a carrier-grade NAT address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['192.0.0.170', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
    ['64:ff9b:1::a', 'a reserved address'],
  ])('refuses %s as %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'a loopback address (127.0.0.1, IPv4-mapped)'],
    ['::ffff:7f00:1', 'a loopback address (127.0.0.1, IPv4-mapped)'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata address (169.254.169.254, IPv4-mapped)'],
    ['[::ffff:10.0.0.5]', 'a private address (10.0.0.5, IPv4-mapped)'],
    ['::ffff:0:192.168.0.1', 'a private address (192.168.0.1, IPv4-translated)'],
    ['::10.0.0.1', 'a private address (10.0.0.1, IPv4-compatible)'],
    ['::0.0.0.2', 'an unspecified address (0.0.0.2, IPv4-compatible)'],
    ['64:ff9b::127.0.0.1', 'a loopback address (127.0.0.1, NAT64)'],
    ['64:ff9b::a9fe:a9fe', 'a cloud metadata address (169.254.169.254, NAT64)'],
    ['2002:7f00:1::', 'a loopback address (127.0.0.1, 6to4)'],
    ['2002:c0a8:101::1', 'a private address (192.168.1.1, 6to4)'],
    // Teredo: the client's address inverted in the last 32 bits (~10.0.0.1 = f5ff:fffe).
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'a private address (10.0.0.1, Teredo)'],
  ])('refuses %s, an IPv6 form of a refused IPv4 address', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:1.1.1.1',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    'fbff:ffff::1',
    'fe7f::1',
  ])('lets %s through as public', (address) => {
    expect(nonPublicKind(address)).toBeUndefined();
  });

  it('never calls text that is not an IP address public', () => {
    expect(nonPublicKind('localhost')).toBe('not an IP address');
    expect(nonPublicKind('')).toBe('not an IP address');
    expect(nonPublicKind('999.1.1.1')).toBe('not an IP address');
    expect(nonPublicKind('2130706433')).toBe('not an IP address');
  });
});

describe('ipv6Bytes', () => {
  it('reads compressed, full and dotted forms', () => {
    expect([...(ipv6Bytes('::1') ?? [])]).toEqual([...Array(15).fill(0), 1]);
    expect([...(ipv6Bytes('1:2:3:4:5:6:7:8') ?? [])]).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect([...(ipv6Bytes('::ffff:1.2.3.4') ?? [])].slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect([...(ipv6Bytes('fe80::') ?? [])]).toEqual([0xfe, 0x80, ...Array(14).fill(0)]);
  });
});
