// Whether a relay is online, by the server's own rule (src/runner/watchdog.ts): silent for three of its shortest
// monitor intervals means offline. A relay without monitors only polls its config (every 60 s by default), so three
// polls are its allowance.
export const RELAY_OFFLINE_AFTER_INTERVALS = 3;
export const RELAY_CONFIG_POLL_SEC = 60;

export type RelayStatus = 'online' | 'offline' | 'never';

export function relayStatus(
  lastSeenAt: number | null,
  shortestIntervalSec: number | undefined,
  now: number,
): RelayStatus {
  if (lastSeenAt === null) return 'never';
  const allowanceMs = RELAY_OFFLINE_AFTER_INTERVALS * (shortestIntervalSec ?? RELAY_CONFIG_POLL_SEC) * 1000;
  return now - lastSeenAt <= allowanceMs ? 'online' : 'offline';
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 365],
];

/** "5 minutes ago", "yesterday": how long since `ms`, in the reader's language. */
export function timeAgo(ms: number, now: number): string {
  let value = Math.max(0, Math.round((now - ms) / 1000));
  for (const [unit, size] of STEPS) {
    if (value < size) return RELATIVE.format(-value, unit);
    value = Math.round(value / size);
  }
  return RELATIVE.format(-value, 'year');
}

/** The agent's command for a token: the environment variables docs/relay.md names, the token never as a flag (ps shows flags). */
export function relayRunCommand(baseUrl: string, token: string): string {
  return `WARDEN_URL=${baseUrl} WARDEN_RELAY_TOKEN=${token} warden relay --data-dir /var/lib/warden-relay`;
}
