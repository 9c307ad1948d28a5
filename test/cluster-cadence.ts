// How evenly the checks of a cluster ran: each monitor's gaps between checks against its interval, and who was late.

/**
 * What "every (monitor, interval) checked exactly once" means here. A monitor's runs follow a fixed cadence from when
 * each was due (runner/probe-schedule.ts), so consecutive checks are one interval apart give or take the difference of
 * their lateness. Each check therefore falls in an interval bucket counted from the check before it: round(gap / interval).
 *   - 1: on schedule;
 *   - 0: a duplicate (the same interval checked twice: the gap is under half an interval);
 *   - k ≥ 2: k − 1 intervals missed (the gap is over one and a half intervals).
 * Tolerance for the first interval: a monitor's first check comes anywhere within its first interval (its spread slot
 * and jitter) after the window opens, so checks are counted from each monitor's first one; a monitor with no check by
 * `firstBy` (default `from + interval + slackMs`) has missed its first interval, one whose last check is more than
 * `interval + slackMs` before `to` has missed its last. (A cluster starting cold hands shards over while it settles:
 * a monitor never checked yet is first checked within an interval of reaching its holder, so `firstBy` is then one
 * interval after the shards settled.) An excused window names the monitors it excuses (a dead process's, until their
 * leases are taken over): their gaps that overlap it are not counted as misses nor as drift; every other monitor is
 * held to the schedule throughout, and duplicates are never excused.
 */
export interface CadenceOptions {
  intervalMs: number;
  /** Checks before `from` or after `to` are ignored. */
  from: number;
  to: number;
  /** Lateness allowed at either end of the window. */
  slackMs?: number;
  /** By when every monitor must have had its first check in the window; `from + intervalMs + slackMs` by default. */
  firstBy?: number;
  /** Misses of these monitors in gaps overlapping [from, to] are excused (counted apart as `excused`). */
  excused?: { from: number; to: number; monitors: ReadonlySet<string> }[];
}

export interface CadenceReport {
  monitors: number;
  checks: number;
  onSchedule: number;
  duplicates: { monitorId: string; at: number; gapMs: number }[];
  missed: { monitorId: string; at: number; gapMs: number; intervals: number }[];
  /** Gaps over an excused window: monitorId → the gap, to check how soon each resumed. */
  excused: { monitorId: string; from: number; to: number }[];
  /** The largest deviation of an on-schedule gap from the interval (ms), and where it was; gaps over an excused window aside. */
  maxDriftMs: number;
  maxDriftAt: { monitorId: string; at: number; gapMs: number } | null;
}

export function cadence(times: Map<string, number[]>, options: CadenceOptions): CadenceReport {
  const { intervalMs, from, to } = options;
  const slack = options.slackMs ?? 2000;
  const excused = options.excused ?? [];
  let monitorId = '';
  const overlapsExcused = (a: number, b: number) =>
    excused.some((w) => w.monitors.has(monitorId) && a <= w.to && b >= w.from);
  const firstBy = options.firstBy ?? from + intervalMs + slack;
  const report: CadenceReport = {
    monitors: 0,
    checks: 0,
    onSchedule: 0,
    duplicates: [],
    missed: [],
    excused: [],
    maxDriftMs: 0,
    maxDriftAt: null,
  };
  for (const [id, all] of times) {
    monitorId = id;
    report.monitors++;
    const list = all.filter((t) => t >= from && t <= to);
    report.checks += list.length;
    // The ends: a check within the first interval after `from`, and one within the last interval before `to`.
    const first = list[0] ?? Number.POSITIVE_INFINITY;
    const last = list.at(-1) ?? from;
    if (first > firstBy) {
      const gapEnd = Math.min(first, to);
      if (overlapsExcused(from, gapEnd)) report.excused.push({ monitorId, from, to: gapEnd });
      else
        report.missed.push({
          monitorId,
          at: from,
          gapMs: gapEnd - from,
          intervals: Math.max(1, Math.round((gapEnd - from) / intervalMs)),
        });
    }
    if (list.length > 0 && last < to - intervalMs - slack) {
      if (overlapsExcused(last, to)) report.excused.push({ monitorId, from: last, to });
      else
        report.missed.push({ monitorId, at: last, gapMs: to - last, intervals: Math.round((to - last) / intervalMs) });
    }
    for (let i = 1; i < list.length; i++) {
      const previous = list[i - 1] as number;
      const at = list[i] as number;
      const gapMs = at - previous;
      const buckets = Math.round(gapMs / intervalMs);
      if (buckets === 0) report.duplicates.push({ monitorId, at, gapMs });
      else if (buckets === 1) {
        report.onSchedule++;
        // The drift over a failover is its own figure (how soon the monitor resumed), not the schedule's.
        if (Math.abs(gapMs - intervalMs) > report.maxDriftMs && !overlapsExcused(previous, at)) {
          report.maxDriftMs = Math.abs(gapMs - intervalMs);
          report.maxDriftAt = { monitorId, at, gapMs };
        }
      } else if (overlapsExcused(previous, at)) report.excused.push({ monitorId, from: previous, to: at });
      else report.missed.push({ monitorId, at, gapMs, intervals: buckets - 1 });
    }
  }
  return report;
}

/** A short, readable account of a cadence report for an assertion message. */
export function describeCadence(report: CadenceReport): string {
  const sample = <T>(list: T[]) => JSON.stringify(list.slice(0, 5));
  return [
    `${report.monitors} monitors, ${report.checks} checks, ${report.onSchedule} on schedule (max drift ${report.maxDriftMs} ms ${JSON.stringify(report.maxDriftAt)})`,
    `${report.duplicates.length} duplicates ${sample(report.duplicates)}`,
    `${report.missed.length} misses ${sample(report.missed)}`,
    `${report.excused.length} excused gaps`,
  ].join('\n');
}
