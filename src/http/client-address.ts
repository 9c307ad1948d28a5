// Who is asking, for per-client limits: the socket's peer, or the last X-Forwarded-For entry behind a trusted proxy.
// IPv6 clients are keyed by their /64, the block one subscriber usually holds, so rotating addresses gains nothing.
import { isIPv6 } from 'node:net';

export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: boolean,
): string {
  let address = peer ?? '';
  if (trustProxy && forwardedFor !== undefined) {
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const last = header.split(',').at(-1)?.trim();
    if (last) address = last;
  }
  return clientKey(address);
}

/** `::ffff:1.2.3.4` is 1.2.3.4; an IPv6 address is its first four groups (its /64). */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
