// A notification channel's rules as pure functions: which events it gets (its scope), and the timing rules' defaults,
// holds, reminders and maintenance cover. The outbox, the send-time gate and the reminders runner apply them.

import { restartExpectedAt } from './expected-restart.js';
import { RULE_LIMITS } from './limits.js';
import type { NotificationRules } from './notification.js';
import { activeAt, type RecurrenceSlot } from './recurrence.js';

/** The state changes of a monitor: what hold, flap damping and "recovered after a skipped alert" are about. */
export const STATE_CHANGE_KINDS: readonly string[] = ['monitor.down', 'monitor.degraded', 'monitor.recovered'];

/** What an event is about, as the scope rules see it. */
export interface EventScope {
  kind: string;
  /** The monitor (its key, and the channels it names); null for incidents, maintenance, relays. */
  monitor: { key: string; notify: readonly string[] | null } | null;
  /** The pages it concerns, with the channels each names. */
  pages: readonly { slug: string; notify: readonly string[] | null }[];
  /** The groups of the components involved on those pages. */
  groups: readonly string[];
  /** A relay event: keys of the monitors that run on the relay. */
  relayMonitorKeys: readonly string[];
}

/** Whether the channel chose what it gets (monitors, pages or groups); `events` alone is no scope. */
export function hasOwnScope(rules: NotificationRules): boolean {
  return rules.monitors !== undefined || rules.pages !== undefined || rules.groups !== undefined;
}

/**
 * Whether the channel wants this kind: `events` lists them (all when absent). A timing rule brings its own kind: a
 * channel with `flap` gets `monitor.flapping`, one with `remindEveryMin` gets `monitor.reminder`, whatever `events` says.
 */
export function wantsKind(rules: NotificationRules, kind: string): boolean {
  if (kind === 'monitor.flapping' && rules.flap) return true;
  if (kind === 'monitor.reminder' && rules.remindEveryMin !== undefined) return true;
  return !rules.events || rules.events.includes(kind);
}

/**
 * Whether a channel gets an event: its `events` want the kind, and either it has no scope of its own and no monitor or
 * page names it (then it gets everything), or the event is in its scope — the monitor is in `monitors` (for a relay
 * event: a monitor on the relay), a page in `pages`, a component group in `groups`, or the monitor or a page names the
 * channel in its `notify`. `named` holds the keys of the channels some monitor or page names.
 */
export function channelWants(
  channel: { key: string; rules: NotificationRules },
  scope: EventScope,
  named: ReadonlySet<string>,
): boolean {
  const { rules, key } = channel;
  if (!wantsKind(rules, scope.kind)) return false;
  if (!hasOwnScope(rules) && !named.has(key)) return true;
  if (rules.monitors) {
    if (scope.monitor && rules.monitors.includes(scope.monitor.key)) return true;
    if (scope.relayMonitorKeys.some((k) => rules.monitors?.includes(k))) return true;
  }
  if (rules.pages && scope.pages.some((p) => rules.pages?.includes(p.slug))) return true;
  if (rules.groups && scope.groups.some((g) => rules.groups?.includes(g))) return true;
  if (scope.monitor?.notify?.includes(key)) return true;
  return scope.pages.some((p) => p.notify?.includes(key));
}

/** How long a state change waits before it is sent (0 for other kinds, or without a hold). */
export function holdMs(rules: NotificationRules, kind: string): number {
  return STATE_CHANGE_KINDS.includes(kind) ? (rules.holdSec ?? 0) * 1000 : 0;
}

/** Whether the channel keeps quiet about components under maintenance (true unless set to false). */
export function quietDuringMaintenance(rules: NotificationRules): boolean {
  return rules.quietDuringMaintenance !== false;
}

/** The flap rule with its defaults, or null when the channel has none. */
export function flapRule(rules: NotificationRules): { changes: number; windowMs: number; windowMin: number } | null {
  if (!rules.flap) return null;
  const changes = rules.flap.changes ?? RULE_LIMITS.flapChanges.default;
  const windowMin = rules.flap.windowMin ?? RULE_LIMITS.flapWindowMin.default;
  return { changes, windowMin, windowMs: windowMin * 60_000 };
}

/** How many days before expiry the channel hears of a certificate. */
export function tlsDays(rules: NotificationRules): number {
  return rules.tlsDays ?? RULE_LIMITS.tlsDays.default;
}

/**
 * The reminder due now for a monitor down since `downSince`: the k-th at downSince + k × every (only the latest one,
 * however many were missed), or null before the first.
 */
export function reminderDue(
  rules: NotificationRules,
  downSince: number,
  now: number,
): { k: number; at: number; everyMs: number } | null {
  if (rules.remindEveryMin === undefined) return null;
  const everyMs = rules.remindEveryMin * 60_000;
  const k = Math.floor((now - downSince) / everyMs);
  return k >= 1 ? { k, at: downSince + k * everyMs, everyMs } : null;
}

/**
 * A maintenance window as far as cover goes: on a page, covering these components and these monitors directly
 * (neither: the whole page).
 */
export interface WindowCover {
  pageId: string;
  startsAt: number;
  endsAt: number;
  recurrence?: readonly RecurrenceSlot[] | null | undefined;
  componentIds: readonly string[];
  monitorIds?: readonly string[] | undefined;
}

/**
 * Whether a maintenance window in progress at `at` covers a monitor: naming it (wherever it is shown), or on a page
 * that shows it, either page-wide or naming one of the components that show it (what the page itself shows as
 * "maintenance"), or in the monitor's own expected restart.
 */
export function underMaintenance(
  at: number,
  monitorId: string,
  showing: readonly { pageId: string; componentId: string }[],
  windows: readonly WindowCover[],
  expectedRestart?: readonly RecurrenceSlot[] | null,
): boolean {
  if (restartExpectedAt(expectedRestart, at)) return true;
  return windows.some((w) => {
    const monitorIds = w.monitorIds ?? [];
    const covers =
      monitorIds.includes(monitorId) ||
      showing.some(
        (s) =>
          s.pageId === w.pageId &&
          (w.componentIds.includes(s.componentId) || (w.componentIds.length === 0 && monitorIds.length === 0)),
      );
    return covers && activeAt(w, at);
  });
}
