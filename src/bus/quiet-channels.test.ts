import { describe, expect, it } from 'vitest';
import { createQuietChannels, QUIET_RECHECK_MS } from './quiet-channels.js';

describe('channels nobody follows', () => {
  const org = 'warden:events:org:o1';
  const clock = () => {
    const time = { now: 1000 };
    return { time, quiet: createQuietChannels(() => time.now) };
  };

  it('skips a channel whose last publish reached no one, and probes it again after a while', () => {
    const { time, quiet } = clock();
    expect(quiet.skips(org)).toBe(false);
    quiet.answered(org, quiet.epoch(), 0);
    expect(quiet.skips(org)).toBe(true);
    time.now += QUIET_RECHECK_MS - 1;
    expect(quiet.skips(org)).toBe(true);
    time.now += 1;
    // One publish goes out to ask again; it reached someone this time.
    expect(quiet.skips(org)).toBe(false);
    quiet.answered(org, quiet.epoch(), 1);
    expect(quiet.skips(org)).toBe(false);
  });

  it('publishes again at once when a process announces it follows the channel', () => {
    const { quiet } = clock();
    quiet.answered(org, quiet.epoch(), 0);
    quiet.followed([org]);
    expect(quiet.skips(org)).toBe(false);
  });

  it('ignores a reply of no one sent before an announcement it heard first', () => {
    const { quiet } = clock();
    const sentAt = quiet.epoch();
    // The announcement (events channel) is read before the reply to the publish sent earlier (another connection).
    quiet.followed([org]);
    quiet.answered(org, sentAt, 0);
    expect(quiet.skips(org)).toBe(false);
  });

  it('skips nothing once the subscription is lost, and no reply from before counts', () => {
    const { quiet } = clock();
    const sentAt = quiet.epoch();
    quiet.answered(org, sentAt, 0);
    quiet.reset();
    expect(quiet.skips(org)).toBe(false);
    quiet.answered(org, sentAt, 0);
    expect(quiet.skips(org)).toBe(false);
  });
});
