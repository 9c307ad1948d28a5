// The probe-target policy at connect time: under `deny` every address a probe would connect to is resolved once,
// every resolved address is checked, and the socket goes to a checked address (no second lookup, no rebinding window).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction, Socket } from 'node:net';
import type { ProbeTargetPolicy } from '../domain/security.js';
import { nonPublicKind } from './address-ranges.js';

/** The code of the error a refused target fails with; describeNetworkError shows its message as it is. */
export const TARGET_REFUSED = 'ERR_PROBE_TARGET_REFUSED';

/** What a probe may connect to; every probe context carries one. */
export interface TargetGuard {
  /** False when every address is allowed: lookups are left as they are and nothing is checked. */
  readonly restricted: boolean;
  /** Why a probe may not connect to this IP address (an error with code TARGET_REFUSED), or undefined when it may. */
  refusal(address: string): Error | undefined;
}

/** `allow`: any address, private ones included (relays, and a self-hosted single organization). */
export const ANY_TARGET: TargetGuard = { restricted: false, refusal: () => undefined };

/** `deny`: public addresses only. */
export const PUBLIC_TARGETS_ONLY: TargetGuard = {
  restricted: true,
  refusal(address) {
    const kind = nonPublicKind(address);
    return kind === undefined ? undefined : refusedError(address, kind);
  },
};

export function targetGuard(policy: ProbeTargetPolicy): TargetGuard {
  return policy === 'allow' ? ANY_TARGET : PUBLIC_TARGETS_ONLY;
}

export function refusedError(address: string, kind: string): Error {
  const message = `refused: ${address} is ${kind}; this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)`;
  return Object.assign(new Error(message), { code: TARGET_REFUSED });
}

/**
 * Why a probe may not talk through a unix socket (Docker's /var/run/docker.sock): under a restricting guard none is
 * allowed, since a socket on this machine is no public address; undefined when any target is allowed.
 */
export function unixSocketRefusal(guard: TargetGuard, path: string): Error | undefined {
  if (!guard.restricted) return undefined;
  const message = `refused: ${path} is a unix socket on this machine, not a public address; this organization's probes may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)`;
  return Object.assign(new Error(message), { code: TARGET_REFUSED });
}

export function isTargetRefused(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === TARGET_REFUSED;
}

/** dns.lookup with `all: true`, swapped in tests for a resolver that answers what they need. */
export type ResolveAll = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolve: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for net.connect, dgram, http.request and ws: resolves every address of the name, refuses them all if any
 * one is refused, and otherwise hands back the checked addresses, which the socket then connects to.
 */
export function guardedLookup(guard: TargetGuard, resolve: ResolveAll = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(
      hostname,
      { family: options.family as number | undefined, hints: options.hints, all: true },
      (error, addresses) => {
        if (error) return callback(error, '');
        const refused = firstRefusal(guard, addresses);
        if (refused) return callback(refused, '');
        const first = addresses[0];
        if (!first)
          return callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
    );
  };
}

export function firstRefusal(guard: TargetGuard, addresses: readonly LookupAddress[]): Error | undefined {
  for (const { address } of addresses) {
    const refused = guard.refusal(address);
    if (refused) return refused;
  }
  return undefined;
}

/** How to reach a host under a guard: as it is, through a checking lookup, or not at all (a refused IP literal). */
export type Dial = { lookup?: LookupFunction } | { refused: Error };

export function dialFor(guard: TargetGuard, host: string): Dial {
  if (!guard.restricted) return {};
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) {
    // A literal is connected to as it is (Node never looks one up): it is checked here instead.
    const refused = guard.refusal(bare);
    return refused ? { refused } : {};
  }
  return { lookup: guardedLookup(guard) };
}

/**
 * A TCP socket that never connects and fails with `error` once its listeners are attached, as a refused connection
 * would. It counts as connecting, so what an HTTP client writes to it waits for a connection that never comes.
 */
export function refusedSocket(error: Error): Socket {
  const socket = new Socket();
  (socket as { connecting: boolean }).connecting = true;
  setImmediate(() => socket.destroy(error));
  return socket;
}
