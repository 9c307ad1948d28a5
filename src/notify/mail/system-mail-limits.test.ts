// The system SMTP server's limits in one process: per channel, per organization, and tests per channel, each a fixed
// window; a refused charge counts against none of them.
import { describe, expect, it } from 'vitest';
import { SYSTEM_MAIL_LIMITS } from '../../domain/system-mail.js';
import { createSystemMailLimiter } from './system-mail-limits.js';

const limits = { ...SYSTEM_MAIL_LIMITS, perChannel: 3, perOrganization: 4, testsPerChannel: 2, windowMs: 60_000 };
const charge = (channelId: string, test = false) => ({ channelId, organizationId: 'org_a', test });

describe('the system SMTP limiter', () => {
  it('holds a channel past its messages per window, until the window ends', () => {
    const limiter = createSystemMailLimiter(limits);
    for (let i = 0; i < 3; i++) expect(limiter.take(charge('nch_a'), 1000 + i)).toEqual({ allowed: true });
    expect(limiter.take(charge('nch_a'), 2000)).toEqual({
      allowed: false,
      retryAfterMs: 59_000,
      limit: 'a channel may send 3 messages a minute through the system SMTP server',
    });
    expect(limiter.take(charge('nch_a'), 61_000)).toEqual({ allowed: true });
  });

  it("counts an organization's channels together", () => {
    const limiter = createSystemMailLimiter(limits);
    for (const id of ['nch_a', 'nch_a', 'nch_b', 'nch_b']) expect(limiter.take(charge(id), 0).allowed).toBe(true);
    expect(limiter.take(charge('nch_c'), 0)).toMatchObject({
      allowed: false,
      limit: expect.stringContaining("an organization's channels may send 4 messages"),
    });
    expect(limiter.take({ channelId: 'nch_c', organizationId: 'org_b', test: false }, 0).allowed).toBe(true);
  });

  it('limits tests on their own, and a refused test takes nothing from the others', () => {
    const limiter = createSystemMailLimiter(limits);
    expect(limiter.take(charge('nch_a', true), 0).allowed).toBe(true);
    expect(limiter.take(charge('nch_a', true), 0).allowed).toBe(true);
    expect(limiter.take(charge('nch_a', true), 0)).toMatchObject({
      allowed: false,
      limit: expect.stringContaining('2 tests'),
    });
    // The channel's third message is still there for an alert.
    expect(limiter.take(charge('nch_a'), 0).allowed).toBe(true);
    expect(limiter.take(charge('nch_a'), 0).allowed).toBe(false);
  });

  it('keeps at most trackedKeys counters', () => {
    const limiter = createSystemMailLimiter({ ...limits, trackedKeys: 4, perOrganization: 1000 });
    for (let i = 0; i < 50; i++) limiter.take(charge(`nch_${i}`), 0);
    // The first channel's window was dropped: it starts again.
    for (let i = 0; i < 3; i++) expect(limiter.take(charge('nch_0'), 1).allowed).toBe(true);
  });
});
