// A relay's status follows the server's offline rule; the agent's command is the one docs/relay.md gives.
import { describe, expect, it } from 'vitest';
import { relayRunCommand, relayStatus, timeAgo } from './relay-status';

describe('relayStatus', () => {
  const now = 1_000_000_000;
  it('is online while silent for at most three of its shortest intervals, or three config polls without monitors', () => {
    expect(relayStatus(null, 30, now)).toBe('never');
    expect(relayStatus(now - 90_000, 30, now)).toBe('online');
    expect(relayStatus(now - 90_001, 30, now)).toBe('offline');
    expect(relayStatus(now - 180_000, undefined, now)).toBe('online');
    expect(relayStatus(now - 181_000, undefined, now)).toBe('offline');
  });
});

describe('timeAgo', () => {
  it('says how long ago in the largest whole unit', () => {
    const now = 10_000_000_000;
    expect(timeAgo(now - 5_000, now)).toMatch(/5 seconds ago/);
    expect(timeAgo(now - 3 * 60_000, now)).toMatch(/3 minutes ago/);
    expect(timeAgo(now - 2 * 3600_000, now)).toMatch(/2 hours ago/);
  });
});

describe('relayRunCommand', () => {
  it('passes the address and the token in the environment, as docs/relay.md does', () => {
    expect(relayRunCommand('https://status.example.com', 'wdr_abc')).toBe(
      'WARDEN_URL=https://status.example.com WARDEN_RELAY_TOKEN=wdr_abc warden relay --data-dir /var/lib/warden-relay',
    );
  });
});
