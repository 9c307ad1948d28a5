// The outcome policy alone: what an attempt's outcome means for the delivery, with the time and the jitter handed in.
import { describe, expect, it } from 'vitest';
import type { SendOutcome } from '../channels/channel.js';
import { backoffMs, decide } from './policy.js';

const POLICY = { backoffBaseMs: 5_000, backoffMaxMs: 3_600_000, giveUpMs: 24 * 3_600_000 };
const NOW = 1_000_000;
const attempt = (
  outcome: SendOutcome,
  more: { attempts?: number; createdAt?: number; random?: number; hold?: boolean } = {},
) =>
  decide(
    {
      outcome,
      attempts: more.attempts ?? 1,
      createdAt: more.createdAt ?? NOW,
      now: NOW,
      random: more.random ?? 0.5,
      hold: more.hold,
    },
    POLICY,
  );

describe('outcome policy', () => {
  it('backs off with full jitter: up to base × 2^(attempt−1), capped', () => {
    expect(backoffMs(1, 0.5, 5_000, 3_600_000)).toBe(2_500);
    expect(backoffMs(3, 0.5, 5_000, 3_600_000)).toBe(10_000);
    expect(backoffMs(3, 0, 5_000, 3_600_000)).toBe(0);
    expect(backoffMs(30, 0.999, 5_000, 3_600_000)).toBe(3_596_400);
    expect(backoffMs(0, 0.5, 5_000, 3_600_000)).toBe(2_500);
  });

  it('acknowledges a sent attempt and gives up on one the receiver refused', () => {
    expect(attempt({ kind: 'sent', status: 204 })).toEqual({ kind: 'sent' });
    expect(attempt({ kind: 'dead', status: 404, error: 'HTTP 404' })).toEqual({
      kind: 'dead',
      error: 'HTTP 404',
      pauseUntil: null,
    });
  });

  it('retries after the backoff, without pausing the channel', () => {
    expect(attempt({ kind: 'retry', status: 503, error: 'HTTP 503' }, { attempts: 2 })).toEqual({
      kind: 'retry',
      at: NOW + 5_000,
      error: 'HTTP 503',
      pauseUntil: null,
    });
  });

  it('honours the receiver’s Retry-After (rounded up) and pauses the whole channel on a 429 until then', () => {
    expect(attempt({ kind: 'retry', status: 429, error: 'rate limited by the receiver', afterMs: 2_999.2 })).toEqual({
      kind: 'retry',
      at: NOW + 3_000,
      error: 'rate limited by the receiver',
      pauseUntil: NOW + 3_000,
    });
  });

  it('gives up once the next try would fall past the give-up window, saying after how many attempts', () => {
    const createdAt = NOW - POLICY.giveUpMs + 1_000;
    expect(
      attempt({ kind: 'retry', status: null, error: 'connection refused' }, { attempts: 7, createdAt, random: 0.1 }),
    ).toEqual({
      kind: 'dead',
      error: 'gave up after 7 attempts: connection refused',
      pauseUntil: null,
    });
    // Still within it: retried.
    expect(
      attempt({ kind: 'retry', status: null, error: 'connection refused' }, { attempts: 7, createdAt, random: 0 }),
    ).toMatchObject({ kind: 'retry', at: NOW });
    // A 429 given up still pauses its channel; a mail hold given up does not.
    expect(attempt({ kind: 'retry', status: 429, error: 'rate limited', afterMs: 5_000 }, { createdAt })).toMatchObject(
      { kind: 'dead', pauseUntil: NOW + 5_000 },
    );
    expect(
      attempt({ kind: 'retry', status: null, error: 'held', afterMs: 5_000 }, { createdAt, hold: true }),
    ).toMatchObject({ kind: 'dead', pauseUntil: null });
  });

  it('pauses the channel for a mail hold that is retried', () => {
    expect(
      attempt({ kind: 'retry', status: null, error: 'held by the hourly limit', afterMs: 60_000 }, { hold: true }),
    ).toEqual({
      kind: 'retry',
      at: NOW + 60_000,
      error: 'held by the hourly limit',
      pauseUntil: NOW + 60_000,
    });
  });
});
