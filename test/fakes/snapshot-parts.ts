// The parts fixture snapshots are built from: components with 90 days of bars, incidents, live data, the snapshot around them.
import type { MonitorState } from '../../src/domain/monitor-type.js';
import type {
  DailyBar,
  LiveData,
  PageState,
  Snapshot,
  SnapshotComponent,
  SnapshotIncident,
  SnapshotMaintenance,
  UptimeWindows,
} from '../../src/domain/snapshot.js';
import { overallState } from '../../src/domain/states.js';

/** The fixed "now" of every fixture: 20 Nov 2026, 14:05 UTC. */
export const FIXTURE_NOW = Date.UTC(2026, 10, 20, 14, 5, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** One component with sensible defaults: operational, 90 good days, no monitor data. */
export function component(overrides: Partial<SnapshotComponent> & { id: string; name: string }): SnapshotComponent {
  const days = overrides.days ?? dayBars(FIXTURE_NOW, { seed: overrides.id.length });
  return {
    description: null,
    group: null,
    state: 'operational',
    monitorState: MONITOR_STATE_OF[overrides.state ?? 'operational'],
    since: null,
    live: null,
    charts: { latency: null, players: null },
    join: null,
    badges: [],
    ...overrides,
    days,
    uptime: overrides.uptime ?? uptimeOf(days),
  };
}

/** An incident with defaults: investigating, minor impact, ongoing, affecting nothing, no updates yet. */
export function incident(
  fields: Partial<SnapshotIncident> & Pick<SnapshotIncident, 'id' | 'title' | 'startedAt'>,
): SnapshotIncident {
  const { id, title, startedAt, ...rest } = fields;
  // The keys in the schema's order, as the service builds them.
  return {
    id,
    title,
    status: 'investigating',
    impact: 'minor',
    startedAt,
    resolvedAt: null,
    components: [],
    updates: [],
    ...rest,
  };
}

/** A maintenance window with defaults: scheduled, without a description, affecting nothing. */
export function maintenanceWindow(
  fields: Partial<SnapshotMaintenance> & Pick<SnapshotMaintenance, 'id' | 'title' | 'startsAt' | 'endsAt'>,
): SnapshotMaintenance {
  const { id, title, startsAt, endsAt, ...rest } = fields;
  return {
    id,
    title,
    description: null,
    startsAt,
    endsAt,
    status: 'scheduled',
    components: [],
    repeats: null,
    ...rest,
  };
}

/** A snapshot of these components, with the overall state derived by the real rules. */
export function snapshotOf(
  components: SnapshotComponent[],
  extra: {
    title?: string;
    description?: string | null;
    activeIncidents?: SnapshotIncident[];
    recentIncidents?: SnapshotIncident[];
    maintenance?: Snapshot['maintenance'];
  },
): Snapshot {
  const activeIncidents = extra.activeIncidents ?? [];
  const players = components.reduce<number | null>(
    (sum, c) => (c.live?.players == null ? sum : (sum ?? 0) + c.live.players),
    null,
  );
  const maxPlayers = components.reduce<number | null>(
    (sum, c) => (c.live?.maxPlayers == null ? sum : (sum ?? 0) + c.live.maxPlayers),
    null,
  );
  return {
    page: {
      id: 'page_blockhaven',
      slug: 'blockhaven',
      title: extra.title ?? 'Blockhaven Network',
      description:
        extra.description === undefined ? 'Minecraft survival, creative and minigames since 2019.' : extra.description,
      url: 'https://status.blockhaven.example/',
      customDomain: 'status.blockhaven.example',
      language: null,
      timeZone: 'UTC',
      branding: {
        accentColor: null,
        accentColorDark: null,
        logo: null,
        favicon: null,
        links: [],
        footerText: null,
        poweredBy: true,
        stylesheet: null,
      },
    },
    overall: overallState({ components: components.map((c) => c.state), pageImpacts: [], pageMaintenance: false }),
    components,
    activeIncidents,
    recentIncidents: extra.recentIncidents ?? [],
    maintenance: extra.maintenance ?? { active: [], upcoming: [] },
    totals: { players, maxPlayers },
    generatedAt: FIXTURE_NOW,
  };
}

/**
 * 90 UTC days ending on `now`'s day, oldest first. Mostly perfect; a seeded few degraded days; `outageDays`
 * (days ago) down; a component `newDays` old has no data before.
 */
export function dayBars(now: number, options: { seed: number; outageDays?: number[]; newDays?: number }): DailyBar[] {
  const random = seeded(options.seed);
  const today = Math.floor(now / DAY) * DAY;
  const bars: DailyBar[] = [];
  for (let ago = 89; ago >= 0; ago--) {
    const date = new Date(today - ago * DAY).toISOString().slice(0, 10);
    const roll = random();
    // downMinutes as the service estimates it for a monitor checked every minute: failed checks × 1 min.
    const day = (uptime: number, state: PageState) => ({
      date,
      uptime,
      state,
      checks: 1440,
      downMinutes: Math.round(1440 * (1 - uptime)),
      incidents: [],
    });
    if (options.newDays !== undefined && ago >= options.newDays)
      bars.push({ date, uptime: null, state: 'unknown', checks: 0, downMinutes: null, incidents: [] });
    else if (options.outageDays?.includes(ago)) bars.push(day(0.9132, 'down'));
    else if (roll < 0.04) bars.push(day(0.9965 - roll, 'degraded'));
    else bars.push(day(1, 'operational'));
  }
  return bars;
}

/** Uptime windows as the service would compute them from the days' checks. */
export function uptimeOf(days: DailyBar[]): UptimeWindows {
  const over = (count: number) => {
    let checks = 0;
    let up = 0;
    for (const day of days.slice(-count)) {
      if (day.uptime === null) continue;
      checks += day.checks;
      up += day.uptime * day.checks;
    }
    return checks === 0 ? null : up / checks;
  };
  return { '24h': over(1), '7d': over(7), '30d': over(30), '90d': over(90) };
}

/** Live data of a Minecraft server checked 20 s before the fixtures' now. */
export function minecraftLive(
  players: number,
  maxPlayers: number | null,
  latencyMs: number,
  version: string,
  motd: string | null,
): LiveData {
  return { checkedAt: FIXTURE_NOW - 20_000, latencyMs, players, maxPlayers, version, motd, message: null };
}

/** Live data of a monitor that reported nothing yet. */
export function emptyLive(): LiveData {
  return {
    checkedAt: null,
    latencyMs: null,
    players: null,
    maxPlayers: null,
    version: null,
    motd: null,
    message: null,
  };
}

const MONITOR_STATE_OF: Record<PageState, MonitorState> = {
  operational: 'up',
  degraded: 'degraded',
  down: 'down',
  maintenance: 'up',
  unknown: 'unknown',
};

/** A small deterministic generator (mulberry32), so fixtures are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
