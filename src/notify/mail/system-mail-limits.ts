// How many messages the system SMTP server takes for one channel, for one organization, and how many tests per channel
// (SYSTEM_MAIL_LIMITS), in fixed windows. In-process here; cluster mode counts in Redis (cluster/shared-limits.ts).
import type { SystemMailLimits } from '../../domain/system-mail.js';

/** One message through the system server: whose, and whether it is a test. */
export interface SystemMailCharge {
  channelId: string;
  organizationId: string;
  test: boolean;
}

export type SystemMailDecision = { allowed: true } | { allowed: false; retryAfterMs: number; limit: string };

export interface SystemMailLimiter {
  /** Counts one message against each of its limits, or none when one of them is spent (then: which, and until when). */
  take(charge: SystemMailCharge, now: number): SystemMailDecision | Promise<SystemMailDecision>;
}

/** The in-process limiter answers at once. */
export interface LocalSystemMailLimiter extends SystemMailLimiter {
  take(charge: SystemMailCharge, now: number): SystemMailDecision;
}

export type SystemMailLimit = 'channel' | 'organization' | 'test';

/** The counters a charge counts against, with their size. */
export function chargedLimits(
  charge: SystemMailCharge,
  limits: SystemMailLimits,
): { limit: SystemMailLimit; key: string; points: number }[] {
  return [
    ...(charge.test ? [{ limit: 'test' as const, key: charge.channelId, points: limits.testsPerChannel }] : []),
    { limit: 'channel', key: charge.channelId, points: limits.perChannel },
    { limit: 'organization', key: charge.organizationId, points: limits.perOrganization },
  ];
}

/** Says which limit was reached, in the words of the log and the 429. */
export function describeLimit(limit: SystemMailLimit, limits: SystemMailLimits): string {
  const window = perWindow(limits.windowMs);
  if (limit === 'test')
    return `a channel may send ${limits.testsPerChannel} tests ${window} through the system SMTP server`;
  if (limit === 'channel')
    return `a channel may send ${limits.perChannel} messages ${window} through the system SMTP server`;
  return `an organization's channels may send ${limits.perOrganization} messages ${window} through the system SMTP server`;
}

function perWindow(ms: number): string {
  if (ms === 3_600_000) return 'an hour';
  if (ms === 60_000) return 'a minute';
  if (ms % 3_600_000 === 0) return `per ${ms / 3_600_000} hours`;
  return `per ${Math.round(ms / 60_000)} minutes`;
}

/** In-process windows, each starting at its key's first message; at most `trackedKeys` held (expired ones go first, then the oldest). */
export function createSystemMailLimiter(limits: SystemMailLimits): LocalSystemMailLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  function current(key: string, now: number): { start: number; count: number } {
    const held = windows.get(key);
    if (held && now - held.start < limits.windowMs) return held;
    if (!held && windows.size >= limits.trackedKeys) {
      for (const [k, w] of windows) if (now - w.start >= limits.windowMs) windows.delete(k);
      while (windows.size >= limits.trackedKeys) {
        const oldest = windows.keys().next().value;
        if (oldest === undefined) break;
        windows.delete(oldest);
      }
    }
    const fresh = { start: now, count: 0 };
    windows.set(key, fresh);
    return fresh;
  }
  return {
    take(charge, now) {
      const counters = chargedLimits(charge, limits).map((c) => ({
        ...c,
        window: current(`${c.limit}:${c.key}`, now),
      }));
      const spent = counters.find((c) => c.window.count >= c.points);
      if (spent)
        return {
          allowed: false,
          retryAfterMs: Math.max(1, spent.window.start + limits.windowMs - now),
          limit: describeLimit(spent.limit, limits),
        };
      for (const c of counters) c.window.count += 1;
      return { allowed: true };
    },
  };
}
