// Stand-ins for the system's ping: a folder holding a `ping` script that prints what a given host's ping prints (a
// forbidding host, a broken one) and records each time it ran, to be put first on PATH.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakePing {
  /** The folder to put first on PATH. */
  dir: string;
  /** The arguments of each run, one line each. */
  runs(): string[];
  /** The process id of each run, and of its parent. */
  processes(): { pid: number; parent: number }[];
  remove(): void;
}

/**
 * A `ping` that prints `stdout` and `stderr` and exits with `exitCode`, recording its arguments; with `hangSec` it
 * prints nothing and waits that long instead (exec'd, so killing the process leaves nothing behind).
 */
export function fakePing({
  stdout = '',
  stderr = '',
  exitCode = 0,
  hangSec,
}: {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
  hangSec?: number;
}): FakePing {
  const dir = mkdtempSync(join(tmpdir(), 'warden-fake-ping-'));
  const log = join(dir, 'runs.log');
  const procs = join(dir, 'processes.log');
  const script = [
    '#!/bin/sh',
    `echo "$*" >> '${log}'`,
    `echo "$$ $PPID" >> '${procs}'`,
    ...(hangSec === undefined ? [] : [`exec sleep ${hangSec}`]),
    `printf '%s' '${stdout.replaceAll("'", "'\\''")}'`,
    `printf '%s' '${stderr.replaceAll("'", "'\\''")}' >&2`,
    `exit ${exitCode}`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'ping'), script);
  chmodSync(join(dir, 'ping'), 0o755);
  return {
    dir,
    runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
    processes: () =>
      (existsSync(procs) ? readFileSync(procs, 'utf8').split('\n').filter(Boolean) : []).map((line) => {
        const [pid, parent] = line.split(' ').map(Number);
        return { pid: pid as number, parent: parent as number };
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `body` with `dir` first on PATH, which is restored afterwards. */
export async function withPathFirst<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = `${dir}:${saved ?? ''}`;
  try {
    return await body();
  } finally {
    process.env.PATH = saved;
  }
}

/** Recorded outputs of real pings (LC_ALL=C), for the parser. */
export const PING_OUTPUTS = {
  iputilsUp: `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.100 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.042 ms
64 bytes from 127.0.0.1: icmp_seq=3 ttl=64 time=0.043 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 409ms
rtt min/avg/max/mdev = 0.042/0.061/0.100/0.027 ms
`,
  iputilsPartial: `PING 192.0.2.80 (192.0.2.80) 56(84) bytes of data.
64 bytes from 192.0.2.80: icmp_seq=1 ttl=57 time=24.1 ms
64 bytes from 192.0.2.80: icmp_seq=3 ttl=57 time=26.9 ms
64 bytes from 192.0.2.80: icmp_seq=4 ttl=57 time=25.0 ms

--- 192.0.2.80 ping statistics ---
4 packets transmitted, 3 received, 25% packet loss, time 3005ms
rtt min/avg/max/mdev = 24.113/25.337/26.912/1.169 ms
`,
  iputilsUnreachable: `PING 203.0.113.5 (203.0.113.5) 56(84) bytes of data.
From 21.4.13.41 icmp_seq=1 Destination Port Unreachable
From 21.4.13.41 icmp_seq=2 Destination Port Unreachable

--- 203.0.113.5 ping statistics ---
2 packets transmitted, 0 received, +2 errors, 100% packet loss, time 202ms

`,
  iputilsSilent: `PING 192.0.2.123 (192.0.2.123) 56(84) bytes of data.

--- 192.0.2.123 ping statistics ---
3 packets transmitted, 0 received, 100% packet loss, time 414ms

`,
  iputilsV6Unreachable: `PING ::ffff:127.0.0.1(::ffff:127.0.0.1) 56 data bytes
From fd00::2 icmp_seq=1 Destination unreachable: Address unreachable

--- ::ffff:127.0.0.1 ping statistics ---
2 packets transmitted, 0 received, +1 errors, 100% packet loss, time 1014ms

`,
  busyboxUp: `PING 127.0.0.1 (127.0.0.1): 56 data bytes
64 bytes from 127.0.0.1: seq=0 ttl=64 time=0.060 ms
64 bytes from 127.0.0.1: seq=1 ttl=64 time=0.094 ms
64 bytes from 127.0.0.1: seq=2 ttl=64 time=0.075 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 packets received, 0% packet loss
round-trip min/avg/max = 0.060/0.076/0.094 ms
`,
  busyboxDuplicates: `PING 192.0.2.255 (192.0.2.255): 56 data bytes
64 bytes from 192.0.2.7: seq=0 ttl=64 time=0.512 ms
64 bytes from 192.0.2.9: seq=0 ttl=64 time=0.733 ms (DUP!)

--- 192.0.2.255 ping statistics ---
1 packets transmitted, 1 packets received, 1 duplicates, 0% packet loss
round-trip min/avg/max = 0.512/0.622/0.733 ms
`,
  busyboxLost: `PING 192.0.2.123 (192.0.2.123): 56 data bytes

--- 192.0.2.123 ping statistics ---
3 packets transmitted, 0 packets received, 100% packet loss
`,
  /** iputils without cap_net_raw, and a host whose ping_group_range leaves the user out. */
  iputilsForbidden: 'ping: socket: Operation not permitted\n',
  /** BusyBox run by a user without CAP_NET_RAW. */
  busyboxForbidden: 'ping: permission denied (are you root?)\n',
} as const;
