// Which IP addresses are not on the public internet: loopback, private, link-local, metadata and the like, in any of
// the IPv6 forms that carry an IPv4 address.
import { BlockList, isIP } from 'node:net';

/** Each kind of non-public address, in the order they are checked (the narrow metadata ranges first). */
const RANGES: readonly { kind: string; v4?: readonly string[]; v6?: readonly string[] }[] = [
  // AWS, GCP, Azure, OpenStack (169.254.169.254), AWS over IPv6 (fd00:ec2::254), Alibaba Cloud (100.100.100.200).
  { kind: 'a cloud metadata address', v4: ['169.254.169.254/32', '100.100.100.200/32'], v6: ['fd00:ec2::254/128'] },
  { kind: 'the broadcast address', v4: ['255.255.255.255/32'] },
  { kind: 'an unspecified address', v4: ['0.0.0.0/8'], v6: ['::/128'] },
  { kind: 'a loopback address', v4: ['127.0.0.0/8'], v6: ['::1/128'] },
  { kind: 'a private address', v4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] },
  { kind: 'a link-local address', v4: ['169.254.0.0/16'], v6: ['fe80::/10'] },
  { kind: 'a carrier-grade NAT address', v4: ['100.64.0.0/10'] },
  { kind: 'a unique-local address', v6: ['fc00::/7', 'fec0::/10'] },
  { kind: 'a multicast address', v4: ['224.0.0.0/4'], v6: ['ff00::/8'] },
  // IETF protocol assignments, benchmarking networks, the old class E, local-use NAT64, the discard prefix.
  {
    kind: 'a reserved address',
    v4: ['192.0.0.0/24', '198.18.0.0/15', '240.0.0.0/4'],
    v6: ['64:ff9b:1::/48', '100::/64'],
  },
];

const LISTS = RANGES.map(({ kind, v4 = [], v6 = [] }) => {
  const list = new BlockList();
  for (const cidr of v4) addSubnet(list, cidr, 'ipv4');
  for (const cidr of v6) addSubnet(list, cidr, 'ipv6');
  return { kind, list };
});

function addSubnet(list: BlockList, cidr: string, type: 'ipv4' | 'ipv6'): void {
  const [network = '', prefix = ''] = cidr.split('/');
  list.addSubnet(network, Number(prefix), type);
}

/** IPv6 prefixes whose addresses carry an IPv4 address, with where it sits and how it is written in. */
const EMBEDDINGS: readonly {
  form: string;
  matches(bytes: Uint8Array): boolean;
  ipv4(bytes: Uint8Array): Uint8Array;
}[] = [
  {
    form: 'IPv4-mapped',
    matches: (b) => zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff,
    ipv4: (b) => b.subarray(12, 16),
  },
  {
    form: 'IPv4-translated',
    matches: (b) => zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12),
    ipv4: (b) => b.subarray(12, 16),
  },
  // ::a.b.c.d, the deprecated IPv4-compatible form; :: and ::1 are checked as themselves.
  {
    form: 'IPv4-compatible',
    matches: (b) => zeros(b, 0, 12) && !(zeros(b, 12, 15) && (b[15] ?? 0) <= 1),
    ipv4: (b) => b.subarray(12, 16),
  },
  {
    form: 'NAT64',
    matches: (b) => b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12),
    ipv4: (b) => b.subarray(12, 16),
  },
  { form: '6to4', matches: (b) => b[0] === 0x20 && b[1] === 0x02, ipv4: (b) => b.subarray(2, 6) },
  // Teredo (2001::/32) carries the client's address inverted in its last 32 bits.
  {
    form: 'Teredo',
    matches: (b) => b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0,
    ipv4: (b) => b.subarray(12, 16).map((byte) => byte ^ 0xff),
  },
];

/**
 * What kind of non-public address this is ("a loopback address", "a private address (10.0.0.5, IPv4-mapped)"), or
 * undefined for a public one. Text that is not an IP address is never public.
 */
export function nonPublicKind(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return kindOf(bare, 'ipv4');
  if (family !== 6) return 'not an IP address';
  const bytes = ipv6Bytes(bare);
  if (!bytes) return 'not an IP address';
  for (const embedding of EMBEDDINGS) {
    if (!embedding.matches(bytes)) continue;
    const ipv4 = [...embedding.ipv4(bytes)].join('.');
    const kind = kindOf(ipv4, 'ipv4');
    if (kind) return `${kind} (${ipv4}, ${embedding.form})`;
  }
  return kindOf(bare, 'ipv6');
}

function kindOf(address: string, type: 'ipv4' | 'ipv6'): string | undefined {
  return LISTS.find(({ list }) => list.check(address, type))?.kind;
}

function zeros(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** The 16 bytes of an IPv6 address already accepted by isIP (so "::" appears at most once), dotted tail included. */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}
