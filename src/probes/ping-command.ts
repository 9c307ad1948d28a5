// ICMP echo through the system's `ping` (iputils or BusyBox): Node has no ICMP socket, and the system ping is the one
// program a host already lets send echo requests (setuid, cap_net_raw, or net.ipv4.ping_group_range). It is given only
// an address the target guard checked, never a name, and its output is read in the C locale and capped. It is run by
// the launcher's helper process (launcher.ts), not forked from the server.
import type { CheckedAddress } from '../net/socket-exchange.js';
import { launch } from './launcher.js';

/** Bounds of one run of the system ping. */
export const PING_COMMAND_LIMITS = {
  /** Output kept at most; ten echo lines and a summary take well under 2 KiB. */
  outputBytes: 64 * 1024,
  /** Longest wait for the last reply, whatever the timeout leaves (ping's -W). */
  maxWaitSec: 5,
} as const;

/** What a ping run reports: its summary, or why it gave none. */
export type PingRun = { ok: true; summary: PingSummary } | { ok: false; error: string; forbidden?: true };

export interface PingSummary {
  sent: number;
  received: number;
  /** Round-trip times in milliseconds, when at least one reply came. */
  rtt?: { min: number; avg: number; max: number };
  /** What the network answered instead of a reply ("destination host unreachable"), when it said anything. */
  unreachable?: string;
}

export interface PingRequest {
  target: CheckedAddress;
  count: number;
  intervalMs: number;
  /** Seconds to wait for the last reply once every echo request is sent. */
  waitSec: number;
  signal: AbortSignal;
  /** The program to run; `ping` from PATH. Tests point it at a missing or a forbidding program. */
  command?: string;
}

/** What the host says when it does not let this process send ICMP echo (iputils, BusyBox, a failed exec). */
const FORBIDDEN = /operation not permitted|permission denied|are you root|lacking privilege|cap_net_raw/i;

/**
 * Runs ping against a checked address. Settles once: with the summary ping printed, or an error; on abort the process
 * is killed and the result is `aborted` (the caller words it as its timeout).
 */
export async function runPing(request: PingRequest): Promise<PingRun | 'aborted'> {
  const { signal } = request;
  if (signal.aborted) return 'aborted';
  const args = [
    '-n',
    '-c',
    String(request.count),
    '-i',
    (request.intervalMs / 1000).toFixed(1),
    '-W',
    String(request.waitSec),
    '--',
    pingAddress(request.target),
  ];
  // A minimal environment: the C locale makes the output parseable, and none of the server's settings (database URLs,
  // tokens) reaches the program.
  const launched = await launch({
    command: request.command ?? 'ping',
    args,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    outputBytes: PING_COMMAND_LIMITS.outputBytes,
    signal,
  });
  if (launched === 'aborted') return 'aborted';
  if (launched.kind === 'overflow')
    return {
      ok: false,
      error: `ping printed more than ${PING_COMMAND_LIMITS.outputBytes / 1024} KiB (a broadcast address answering many times?)`,
    };
  if (launched.kind === 'failed') return spawnFailure(launched);
  return readRun(launched.stdout, launched.stderr, launched.code);
}

/** The outcome of a finished ping from what it printed: its summary, or what stopped it, in words. */
export function readRun(stdout: string, stderr: string, exitCode: number | null): PingRun {
  const summary = parsePingOutput(stdout);
  if (summary) return { ok: true, summary };
  const complaint = firstLine(stderr);
  if (FORBIDDEN.test(complaint)) return { ok: false, forbidden: true, error: forbiddenError(complaint) };
  if (complaint) return { ok: false, error: `ping failed: ${complaint}` };
  return { ok: false, error: `ping ended without a summary (exit code ${exitCode ?? 'none: killed'})` };
}

/**
 * The summary of an iputils or BusyBox ping (the BSDs and macOS print the same lines):
 *   3 packets transmitted, 2 received, +1 errors, 33.3333% packet loss, time 2003ms
 *   rtt min/avg/max/mdev = 0.042/0.061/0.100/0.027 ms
 *   3 packets transmitted, 3 packets received, 0% packet loss
 *   round-trip min/avg/max = 0.060/0.076/0.094 ms
 */
export function parsePingOutput(output: string): PingSummary | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(output);
  if (!counts) return undefined;
  const summary: PingSummary = { sent: Number(counts[1]), received: Number(counts[2]) };
  const times = /min\/avg\/max(?:\/(?:mdev|stddev))? = ([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(output);
  if (times) summary.rtt = { min: Number(times[1]), avg: Number(times[2]), max: Number(times[3]) };
  const unreachable = /(Destination [\w ]*?Unreachable[^\n]*|Time to live exceeded|Time exceeded[^\n]*)/i.exec(output);
  if (unreachable?.[1]) summary.unreachable = unreachable[1].trim().replace(/:\s*/, ': ').toLowerCase().slice(0, 100);
  return summary;
}

function forbiddenError(complaint: string): string {
  return (
    `this host does not allow ICMP echo (${complaint.slice(0, 120)}): give the ping command the cap_net_raw capability, ` +
    'or let this user send unprivileged pings with sysctl net.ipv4.ping_group_range; or use mode: tcp'
  );
}

function spawnFailure(error: { code?: string | undefined; message: string }): PingRun {
  if (error.code === 'ENOENT')
    return {
      ok: false,
      error:
        'the ping command is not installed on this host (Debian and Ubuntu: apt-get install iputils-ping); or use mode: tcp',
    };
  if (error.code === 'EPERM' || error.code === 'EACCES')
    return { ok: false, forbidden: true, error: forbiddenError(`cannot run ping: ${error.code}`) };
  return { ok: false, error: `cannot run ping: ${error.message}` };
}

/** An IPv4-mapped IPv6 address is pinged as the IPv4 address it carries: ICMPv6 would never reach it. */
function pingAddress(target: CheckedAddress): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(target.address);
  return mapped?.[1] ?? target.address;
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 200);
}
