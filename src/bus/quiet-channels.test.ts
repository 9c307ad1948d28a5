import { describe, expect, it } from 'vitest';
import { createQuietChannels, QUIET_HOLD_EVENTS, QUIET_HOLD_MS, QUIET_RECHECK_MS } from './quiet-channels.js';

describe('channels nobody follows', () => {
  const org = 'warden:events:org:o1';
  const clock = () => {
    const time = { now: 1000 };
    return { time, quiet: createQuietChannels<string>(() => time.now) };
  };

  it('skips a channel whose last publish reached no one, and probes it again after a while', () => {
    const { time, quiet } = clock();
    expect(quiet.skip(org, [])).toBe(false);
    quiet.answered(org, quiet.epoch(), 0);
    expect(quiet.skip(org, [])).toBe(true);
    time.now += QUIET_RECHECK_MS - 1;
    expect(quiet.skip(org, [])).toBe(true);
    time.now += 1;
    // One publish goes out to ask again; it reached someone this time.
    expect(quiet.skip(org, [])).toBe(false);
    quiet.answered(org, quiet.epoch(), 1);
    expect(quiet.skip(org, [])).toBe(false);
  });

  it('publishes again at once when a process announces it follows the channel', () => {
    const { quiet } = clock();
    quiet.answered(org, quiet.epoch(), 0);
    quiet.followed([org]);
    expect(quiet.skip(org, [])).toBe(false);
  });

  it('ignores a reply of no one sent before an announcement it heard first', () => {
    const { quiet } = clock();
    const sentAt = quiet.epoch();
    // The announcement (events channel) is read before the reply to the publish sent earlier (another connection).
    quiet.followed([org]);
    quiet.answered(org, sentAt, 0);
    expect(quiet.skip(org, [])).toBe(false);
  });

  it('skips nothing once the subscription is lost, and no reply from before counts', () => {
    const { quiet } = clock();
    const sentAt = quiet.epoch();
    quiet.answered(org, sentAt, 0);
    quiet.reset();
    expect(quiet.skip(org, [])).toBe(false);
    quiet.answered(org, sentAt, 0);
    expect(quiet.skip(org, [])).toBe(false);
  });

  it('holds what it skipped lately, and gives it to a follower announced meanwhile', () => {
    const { time, quiet } = clock();
    quiet.answered(org, quiet.epoch(), 0);
    expect(quiet.skip(org, ['m1'])).toBe(true);
    time.now += QUIET_HOLD_MS;
    expect(quiet.skip(org, ['m2', 'm3'])).toBe(true);
    time.now += QUIET_HOLD_MS - 1;
    expect(quiet.skip(org, ['m4'])).toBe(true);
    // m1 is older than the hold: the follower's page, built after its announcement went out, has it.
    expect(quiet.followed([org, 'warden:events:org:o2'])).toEqual(new Map([[org, ['m2', 'm3', 'm4']]]));
    expect(quiet.skip(org, ['m5'])).toBe(false);
    // Given once.
    expect(quiet.followed([org])).toEqual(new Map());
  });

  it('holds at most its cap per channel, the newest', () => {
    const { quiet } = clock();
    quiet.answered(org, quiet.epoch(), 0);
    const events = Array.from({ length: QUIET_HOLD_EVENTS + 5 }, (_, i) => `m${i}`);
    expect(quiet.skip(org, events)).toBe(true);
    expect(quiet.followed([org]).get(org)).toEqual(events.slice(5));
  });

  it('forgets what it held once the channel is asked again, reached, or the subscription lost', () => {
    const { time, quiet } = clock();
    quiet.answered(org, quiet.epoch(), 0);
    quiet.skip(org, ['m1']);
    time.now += QUIET_RECHECK_MS;
    expect(quiet.skip(org, ['m2'])).toBe(false);
    expect(quiet.followed([org])).toEqual(new Map());
    quiet.answered(org, quiet.epoch(), 0);
    quiet.skip(org, ['m3']);
    quiet.answered(org, quiet.epoch(), 2);
    expect(quiet.followed([org])).toEqual(new Map());
    quiet.answered(org, quiet.epoch(), 0);
    quiet.skip(org, ['m4']);
    quiet.reset();
    expect(quiet.followed([org])).toEqual(new Map());
  });
});
