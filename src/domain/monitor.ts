// A monitor: what to check (type + config), where it runs, its current state; the fields every writer shares and their rules.
import { z } from 'zod';
import { expectedRestartSchema } from './expected-restart.js';
import { intIn, stableKey, text } from './fields.js';
import { LIMITS, MONITOR_LIMITS } from './limits.js';
import type { CheckSource, MonitorState, MonitorType, RunOn } from './monitor-type.js';
import type { Ownership } from './ownership.js';
import { type PlayerAlerts, playerAlertsSchema } from './player-alerts.js';
import type { RecurrenceSlot } from './recurrence.js';
import { EDGE_LOCATION, type LocationResults, voteWindowMs } from './vantage.js';

export interface LatestResult {
  checkedAt: number;
  ok: boolean;
  latencyMs: number | null;
  message: string | null;
  error: string | null;
  data: Record<string, unknown> | null;
  source: CheckSource;
}

export interface Monitor extends Ownership {
  id: string;
  organizationId: string;
  key: string;
  name: string;
  type: MonitorType;
  config: Record<string, unknown>;
  intervalSec: number;
  timeoutMs: number;
  runOn: RunOn;
  relayId: string | null;
  pushTokenPrefix: string | null;
  enabled: boolean;
  /** When it was paused (enabled turned false, or created disabled); null while enabled. */
  pausedAt: number | null;
  retries: number;
  degradedLatencyMs: number | null;
  state: MonitorState;
  stateSince: number;
  failureStreak: number;
  lastCheckAt: number | null;
  lastResult: LatestResult | null;
  /** When the secrets in `config` were last written in full (created, sent in full through the API, or by warden.yaml). */
  secretsSetAt: number | null;
  /** Keys of the notification channels this monitor names: they get its events (null: none named). */
  notify: string[] | null;
  /** Short labels the dashboard filters by (MONITOR_TAG); [] when none. */
  tags: string[];
  /** Alerts on the players, queue, version and map a game server reports; null: none. */
  playerAlerts: PlayerAlerts | null;
  /** When it restarts on purpose (counts as under maintenance then, domain/expected-restart.ts); null: never. */
  expectedRestart: RecurrenceSlot[] | null;
  /** Key of the parent monitor (docs/monitors.md, "Dependencies"): while it is down this one's alerts are held back. */
  dependsOn: string | null;
  /** Its other locations, besides its own place (docs/monitors.md, "Several locations"): 'edge' and relay ids; null: none. */
  locations: string[] | null;
  /** Down when at least this many voting locations see it down; null: a majority of them. */
  quorum: number | null;
  /** Each location's latest result, by location id ({} for a single-location monitor). */
  locationResults: LocationResults;
}

/**
 * The fields a writer (config sync or API) sets; state fields are the ingest path's alone. `notify` and `tags` left
 * out: unchanged (none on insert).
 */
export type MonitorSpec = Pick<
  Monitor,
  | 'key'
  | 'name'
  | 'type'
  | 'config'
  | 'intervalSec'
  | 'timeoutMs'
  | 'runOn'
  | 'relayId'
  | 'enabled'
  | 'retries'
  | 'degradedLatencyMs'
> & {
  notify?: string[] | null | undefined;
  tags?: string[] | undefined;
  playerAlerts?: PlayerAlerts | null | undefined;
  expectedRestart?: RecurrenceSlot[] | null | undefined;
  dependsOn?: string | null | undefined;
  locations?: string[] | null | undefined;
  quorum?: number | null | undefined;
};

/** Where a multi-location monitor runs and how its state is decided (ingest's view of it). */
export interface MonitorVantage {
  /** Every location, its own place first: 'edge' or relay ids. */
  locations: string[];
  quorum: number | null;
  /** How old a location's latest result may be and still vote (domain/vantage.ts). */
  windowMs: number;
}

/** The monitor's own place as a location: the edge, its relay, or null for a push monitor. */
export function ownLocation(monitor: Pick<Monitor, 'runOn' | 'relayId'>): string | null {
  if (monitor.runOn === 'edge') return EDGE_LOCATION;
  return monitor.runOn === 'relay' ? monitor.relayId : null;
}

/** The vantage of a monitor with other locations; null for a single-location one (judged result by result). */
export function vantageOf(
  monitor: Pick<Monitor, 'runOn' | 'relayId' | 'locations' | 'quorum' | 'intervalSec' | 'timeoutMs'>,
): MonitorVantage | null {
  const own = ownLocation(monitor);
  if (own === null || monitor.locations === null || monitor.locations.length === 0) return null;
  return {
    locations: [own, ...monitor.locations.filter((l) => l !== own)],
    quorum: monitor.quorum,
    windowMs: voteWindowMs(monitor),
  };
}

/**
 * The state of a monitor that every result may move, with the settings that decide how (ingest's view of a monitor);
 * `lastResult` is the latest result as stored (JSON), or null.
 */
export type MonitorStateRow = Pick<
  Monitor,
  'id' | 'organizationId' | 'retries' | 'degradedLatencyMs' | 'state' | 'stateSince' | 'failureStreak' | 'lastCheckAt'
> & {
  lastResult: string | null;
  /** The monitor's player alerts as stored (JSON), or null; read only. */
  playerAlerts: string | null;
  /** The state of their conditions (JSON, domain/player-alerts.ts), written with the state. */
  playerAlertsState: string | null;
  /** Several locations: where it runs and its rule; absent or null: one location. */
  vantage?: MonitorVantage | null | undefined;
  /** Each location's latest result (JSON, domain/vantage.ts), written with the state; absent or null: none. */
  locationResults?: string | null | undefined;
};

/** The state the dashboard shows: the monitor's state, or `paused` while it is disabled. */
export type ShownState = MonitorState | 'paused';
export const SHOWN_STATES = ['up', 'degraded', 'down', 'unknown', 'paused'] as const satisfies readonly ShownState[];

/** A change of a monitor's shown state, recorded by ingest (with the commit that derives it) and by pause and resume. */
export interface MonitorStateChange {
  id: string;
  monitorId: string;
  at: number;
  from: ShownState;
  to: ShownState;
  /** Why: the failing check's error, the passing check's message, the latency rule, the silence, the pause. */
  message: string | null;
}

/** What scheduling a monitor needs: edge monitors and a relay's assignments both have it (`type` may be one this build lacks). */
export type ScheduledMonitor = Pick<Monitor, 'id' | 'key' | 'intervalSec' | 'timeoutMs'> & {
  type: string;
  config: unknown;
};

/** A secret token as stored: its SHA-256 hash and the visible start shown in lists. */
export interface StoredToken {
  hash: string;
  prefix: string;
}

/** Whether a writer's spec differs from what is stored (so re-applying the same config writes nothing). */
export function monitorSpecChanged(current: Monitor, spec: MonitorSpec): boolean {
  return (
    current.name !== spec.name ||
    current.type !== spec.type ||
    JSON.stringify(current.config) !== JSON.stringify(spec.config) ||
    current.intervalSec !== spec.intervalSec ||
    current.timeoutMs !== spec.timeoutMs ||
    current.runOn !== spec.runOn ||
    current.relayId !== spec.relayId ||
    current.enabled !== spec.enabled ||
    current.retries !== spec.retries ||
    current.degradedLatencyMs !== spec.degradedLatencyMs ||
    (spec.notify !== undefined && JSON.stringify(current.notify) !== JSON.stringify(spec.notify)) ||
    (spec.tags !== undefined && JSON.stringify(current.tags) !== JSON.stringify(spec.tags)) ||
    (spec.playerAlerts !== undefined && JSON.stringify(current.playerAlerts) !== JSON.stringify(spec.playerAlerts)) ||
    (spec.expectedRestart !== undefined &&
      JSON.stringify(current.expectedRestart) !== JSON.stringify(spec.expectedRestart)) ||
    (spec.dependsOn !== undefined && current.dependsOn !== spec.dependsOn) ||
    (spec.locations !== undefined && JSON.stringify(current.locations) !== JSON.stringify(spec.locations)) ||
    (spec.quorum !== undefined && current.quorum !== spec.quorum)
  );
}

/**
 * A tag: 1 to 40 lowercase letters, digits, "-", "_" or ".", starting with a letter or digit. The charset is what lets
 * the store match a tag inside the stored JSON array with LIKE '%"tag"%' (no quote or backslash can occur).
 */
export const MONITOR_TAG = /^[a-z0-9][a-z0-9._-]{0,39}$/;
const TAG_MESSAGE = 'expected 1 to 40 lowercase letters, digits, "-", "_" or ".", starting with a letter or digit';
export const monitorTag = () => z.string({ error: TAG_MESSAGE }).regex(MONITOR_TAG, { error: TAG_MESSAGE });

/**
 * Monitor fields shared by warden.yaml and the API, without defaults: a partial update (PATCH) must not reset
 * the fields it leaves out, so each whole-object schema adds its defaults itself.
 */
export const monitorFields = {
  key: stableKey(),
  name: text(200),
  relay: stableKey().describe('Key of the relay that runs this monitor; required when runOn is relay.'),
  intervalSec: intIn(MONITOR_LIMITS.intervalSec.min, MONITOR_LIMITS.intervalSec.max, ' seconds').describe(
    'Seconds between checks.',
  ),
  timeoutMs: intIn(MONITOR_LIMITS.timeoutMs.min, MONITOR_LIMITS.timeoutMs.max, ' milliseconds').describe(
    'A check that takes longer fails with "timed out".',
  ),
  enabled: z.boolean(),
  retries: intIn(MONITOR_LIMITS.retries.min, MONITOR_LIMITS.retries.max).describe(
    'Failed checks tolerated before the monitor goes down (1 means the second failure in a row).',
  ),
  degradedLatencyMs: intIn(
    MONITOR_LIMITS.degradedLatencyMs.min,
    MONITOR_LIMITS.degradedLatencyMs.max,
    ' milliseconds',
  ).describe('A passing check slower than this shows the monitor as degraded.'),
  notify: z
    .array(stableKey())
    .max(LIMITS.notificationChannelsPerOrganization)
    .describe(
      'Keys of notification channels that get this monitor\'s events, whatever their own scope (docs/notifications.md, "Scope").',
    ),
  tags: z
    .array(monitorTag())
    .max(MONITOR_LIMITS.tags, { error: `at most ${MONITOR_LIMITS.tags} tags` })
    .refine((tags) => new Set(tags).size === tags.length, { error: 'each tag once' })
    .describe(
      `Labels to filter monitors by in the dashboard and the API (\`?tag=\`): up to ${MONITOR_LIMITS.tags}, each 1 to 40 of a-z, 0-9, "-", "_", ".".`,
    ),
  playerAlerts: playerAlertsSchema,
  expectedRestart: expectedRestartSchema,
  dependsOn: stableKey().describe(
    'Key of the parent monitor: while it is down, this monitor is unreachable and its alerts are held back (docs/monitors.md, "Dependencies").',
  ),
  locations: z
    .array(stableKey())
    .max(MONITOR_LIMITS.locations, { error: `at most ${MONITOR_LIMITS.locations} locations` })
    .refine((keys) => new Set(keys).size === keys.length, { error: 'each location once' })
    .describe(
      'Other places the monitor also runs, besides its own: "edge" and relay keys. Each result is kept per location and the state follows `quorum` (docs/monitors.md, "Several locations"); [] or absent: its own place only.',
    ),
  quorum: intIn(1, MONITOR_LIMITS.locations + 1).describe(
    'With locations: down when at least this many of the locations heard from see it down (a silent one does not vote); absent: a majority of them.',
  ),
  pushToken: z
    .string()
    .regex(/^wdp_[A-Za-z0-9_-]{16,128}$/, {
      error: 'expected a push token starting with wdp_ (at least 16 characters after it)',
    })
    .describe('Heartbeat monitors: the push token; one is generated when absent.'),
};

/** Where a monitor runs and its relay must agree, and the relay must exist: the same rule for warden.yaml and the API. */
export function monitorPlacementIssues(
  monitor: { runOn: RunOn; relay?: string | null | undefined },
  relayExists: (key: string) => boolean,
): { path: 'relay'; message: string }[] {
  const relay = monitor.relay ?? undefined;
  if (monitor.runOn === 'relay' && relay === undefined)
    return [{ path: 'relay', message: 'required when runOn is relay' }];
  if (monitor.runOn !== 'relay' && relay !== undefined)
    return [{ path: 'relay', message: 'only allowed when runOn is relay' }];
  if (relay !== undefined && !relayExists(relay)) return [{ path: 'relay', message: `no relay with key "${relay}"` }];
  return [];
}

/**
 * A monitor's other locations must be 'edge' or relays of the organization, not its own place, and not for a push
 * monitor; its quorum at most the number of locations (its own included): the same rule for warden.yaml and the API.
 */
export function monitorLocationIssues(
  monitor: {
    runOn: RunOn;
    relay?: string | null | undefined;
    locations?: readonly string[] | null | undefined;
    quorum?: number | null | undefined;
  },
  relayExists: (key: string) => boolean,
): { path: 'locations' | 'quorum'; message: string }[] {
  const locations = monitor.locations ?? [];
  const issues: { path: 'locations' | 'quorum'; message: string }[] = [];
  if (monitor.runOn === 'push' && locations.length > 0)
    issues.push({ path: 'locations', message: 'a push monitor has no other locations: it is not run, it is sent to' });
  const own = monitor.runOn === 'relay' ? (monitor.relay ?? undefined) : EDGE_LOCATION;
  for (const location of locations) {
    if (location === own) issues.push({ path: 'locations', message: `"${location}" is the monitor's own place` });
    else if (location !== EDGE_LOCATION && !relayExists(location))
      issues.push({
        path: 'locations',
        message: `no relay with key "${location}" (a location is "edge" or a relay key)`,
      });
  }
  const quorum = monitor.quorum ?? null;
  if (quorum !== null && quorum > locations.length + 1)
    issues.push({
      path: 'quorum',
      message: `at most the number of locations (${locations.length + 1}, the monitor's own place included)`,
    });
  return issues;
}
