// Realistic status page snapshots, shared by the renderers' tests, the browser tests and the benchmarks.

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
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Every fixture by name, for tests and benchmarks that run over all of them. */
export const SNAPSHOT_FIXTURES = {
  operational: operationalSnapshot,
  partialOutage: partialOutageSnapshot,
  maintenance: maintenanceSnapshot,
  activeIncident: activeIncidentSnapshot,
  large: largeSnapshot,
  hostile: hostileSnapshot,
} satisfies Record<string, () => Snapshot>;

export type SnapshotFixtureName = keyof typeof SNAPSHOT_FIXTURES;

/** A game-server network where everything works. */
export function operationalSnapshot(): Snapshot {
  return snapshotOf(networkComponents(), {});
}

/** The survival Minecraft server is down (refusing connections); the rest is fine. */
export function partialOutageSnapshot(): Snapshot {
  const components = networkComponents().map((c) =>
    c.id === 'survival'
      ? {
          ...c,
          state: 'down' as const,
          monitorState: 'down' as const,
          since: FIXTURE_NOW - 23 * MINUTE,
          live: { ...emptyLive(), checkedAt: FIXTURE_NOW - 20_000, message: 'connect ECONNREFUSED 10.0.0.12:25565' },
          days: dayBars(FIXTURE_NOW, { seed: 3, outageDays: [0] }),
        }
      : c,
  );
  return snapshotOf(components, {});
}

/** The creative server is in its weekly maintenance; a database upgrade is planned for the weekend. */
export function maintenanceSnapshot(): Snapshot {
  const components = networkComponents().map((c) =>
    c.id === 'creative' ? { ...c, state: 'maintenance' as const, since: FIXTURE_NOW - 35 * MINUTE, live: null } : c,
  );
  const active: SnapshotMaintenance = {
    id: 'mnt_weekly',
    title: 'Weekly world backup and restart',
    description: 'Creative is restarting after its weekly backup.\nBuilds are safe; expect about 45 minutes of downtime.',
    startsAt: FIXTURE_NOW - 35 * MINUTE,
    endsAt: FIXTURE_NOW + 10 * MINUTE,
    status: 'in_progress',
    components: [{ id: 'creative', name: 'Creative' }],
  };
  const upcoming: SnapshotMaintenance = {
    id: 'mnt_db',
    title: 'Database upgrade',
    description: 'Player data moves to a faster database. Every server restarts once.',
    startsAt: FIXTURE_NOW + 2 * DAY + 6 * HOUR,
    endsAt: FIXTURE_NOW + 2 * DAY + 8 * HOUR,
    status: 'scheduled',
    components: [
      { id: 'survival', name: 'Survival' },
      { id: 'creative', name: 'Creative' },
      { id: 'website', name: 'Website' },
    ],
  };
  return snapshotOf(components, { maintenance: { active: [active], upcoming: [upcoming] } });
}

/** Lag on the survival server under investigation, with three updates, plus two resolved incidents of last week. */
export function activeIncidentSnapshot(): Snapshot {
  const components = networkComponents().map((c) =>
    c.id === 'survival' ? { ...c, state: 'degraded' as const, monitorState: 'degraded' as const, since: FIXTURE_NOW - 50 * MINUTE } : c,
  );
  const lag: SnapshotIncident = {
    id: 'inc_lag',
    title: 'Lag spikes on Survival',
    status: 'monitoring',
    impact: 'minor',
    startedAt: FIXTURE_NOW - 55 * MINUTE,
    resolvedAt: null,
    components: [{ id: 'survival', name: 'Survival' }],
    updates: [
      { id: 'upd_1', status: 'investigating', message: 'Players report rubber-banding on Survival. We are looking into it.', at: FIXTURE_NOW - 55 * MINUTE },
      {
        id: 'upd_2',
        status: 'identified',
        message: 'A runaway redstone clock near spawn was pinning the main thread.\nIt has been removed.',
        at: FIXTURE_NOW - 30 * MINUTE,
      },
      { id: 'upd_3', status: 'monitoring', message: 'TPS is back to 20. We are watching it for the next hour.', at: FIXTURE_NOW - 5 * MINUTE },
    ],
  };
  return snapshotOf(components, { activeIncidents: [lag], recentIncidents: resolvedIncidents() });
}

/** A big network: 50 components in 5 groups, each with 90 days of bars, some with bad days. */
export function largeSnapshot(): Snapshot {
  const groups = ['Proxies', 'Minigames', 'Survival worlds', 'Modded', 'Web and voice'];
  const components: SnapshotComponent[] = [];
  for (let i = 0; i < 50; i++) {
    const group = groups[i % groups.length]!;
    const game = group !== 'Web and voice';
    const state: PageState = i === 7 ? 'down' : i === 13 || i === 31 ? 'degraded' : i === 44 ? 'unknown' : 'operational';
    const days = dayBars(FIXTURE_NOW, { seed: i + 11, outageDays: i === 7 ? [0, 23] : [], newDays: i === 44 ? 12 : undefined });
    components.push(
      component({
        id: `cmp_${String(i + 1).padStart(2, '0')}`,
        name: game ? `${group.replace(/s$/, '')} ${Math.floor(i / groups.length) + 1}` : `Service ${i + 1}`,
        group,
        state,
        days,
        since: state === 'operational' ? null : FIXTURE_NOW - (i + 5) * MINUTE,
        live:
          state === 'down' || state === 'unknown'
            ? null
            : game
              ? minecraftLive(((i * 37) % 180) + 3, 200, 18 + (i % 40), 'Paper 1.21.4', null)
              : { ...emptyLive(), checkedAt: FIXTURE_NOW - 15_000, latencyMs: 40 + i },
      }),
    );
  }
  return snapshotOf(components, { recentIncidents: resolvedIncidents() });
}

/** Every piece of user text is an attack or a formatting trap: HTML, script, quotes, Markdown, huge words. */
export function hostileSnapshot(): Snapshot {
  const xss = '<img src=x onerror=alert(1)>';
  const components: SnapshotComponent[] = [
    component({
      id: 'cmp_xss"><script>alert(2)</script>',
      name: xss,
      group: '</h3><script>alert(3)</script>',
      description: '"><svg onload=alert(4)>',
      live: minecraftLive(1, 10, 30, '1.21"><b>x</b>', '§aWelcome\n<script>alert(5)</script>\n# not a heading\n- not a list'),
    }),
    component({ id: 'cmp_md', name: '*bold* | pipe', group: '`code` [link](javascript:alert(1))', description: '_under_ ~strike~ <b>html</b>' }),
    component({
      id: 'cmp_long',
      name: 'A'.repeat(300),
      group: '`code` [link](javascript:alert(1))',
      state: 'down',
      since: FIXTURE_NOW - 3 * MINUTE,
      live: { ...emptyLive(), message: 'https://example.com/'.repeat(20) },
    }),
  ];
  const incident: SnapshotIncident = {
    id: 'inc_xss',
    title: 'Bob\'s "Best" <Server> & Co — </title><script>alert(6)</script>',
    status: 'investigating',
    impact: 'major',
    startedAt: FIXTURE_NOW - 10 * MINUTE,
    resolvedAt: null,
    components: [{ id: 'cmp_xss', name: xss }],
    updates: [
      { id: 'u1', status: 'investigating', message: '</p></li></ol><script>alert(7)</script>\n1. one\n> quote\n---', at: FIXTURE_NOW - 10 * MINUTE },
      { id: 'u2', status: 'identified', message: '[click](javascript:alert(8)) ![img](x) <!-- comment', at: FIXTURE_NOW - 2 * MINUTE },
    ],
  };
  return snapshotOf(components, {
    title: 'Bob\'s "Best" <Server> & Co',
    description: '"quoted" \'single\' <b>bold</b> & `code` </textarea>',
    activeIncidents: [incident],
  });
}

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
    ...overrides,
    days,
    uptime: overrides.uptime ?? uptimeOf(days),
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
  const players = components.reduce<number | null>((sum, c) => (c.live?.players == null ? sum : (sum ?? 0) + c.live.players), null);
  const maxPlayers = components.reduce<number | null>((sum, c) => (c.live?.maxPlayers == null ? sum : (sum ?? 0) + c.live.maxPlayers), null);
  return {
    page: {
      id: 'page_blockhaven',
      slug: 'blockhaven',
      title: extra.title ?? 'Blockhaven Network',
      description: extra.description === undefined ? 'Minecraft survival, creative and minigames since 2019.' : extra.description,
      url: 'https://status.blockhaven.example/',
      customDomain: 'status.blockhaven.example',
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
    if (options.newDays !== undefined && ago >= options.newDays) bars.push({ date, uptime: null, state: 'unknown', checks: 0 });
    else if (options.outageDays?.includes(ago)) bars.push({ date, uptime: 0.9132, state: 'down', checks: 1440 });
    else if (roll < 0.04) bars.push({ date, uptime: 0.9965 - roll, state: 'degraded', checks: 1440 });
    else bars.push({ date, uptime: 1, state: 'operational', checks: 1440 });
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

const MONITOR_STATE_OF: Record<PageState, MonitorState> = {
  operational: 'up',
  degraded: 'degraded',
  down: 'down',
  maintenance: 'up',
  unknown: 'unknown',
};

function networkComponents(): SnapshotComponent[] {
  return [
    component({
      id: 'lobby',
      name: 'Lobby',
      group: 'Game servers',
      description: 'play.blockhaven.example',
      live: minecraftLive(42, 500, 23, 'Velocity 3.4 (1.8–1.21.4)', 'Blockhaven Network\nSurvival · Creative · Minigames'),
    }),
    component({ id: 'survival', name: 'Survival', group: 'Game servers', live: minecraftLive(87, 200, 31, 'Paper 1.21.4', null) }),
    component({ id: 'creative', name: 'Creative', group: 'Game servers', live: minecraftLive(12, 100, 29, 'Paper 1.21.4', null) }),
    component({
      id: 'bedrock',
      name: 'Bedrock gateway',
      group: 'Game servers',
      description: 'Geyser, port 19132',
      live: minecraftLive(9, null, 35, '1.21.50', null),
    }),
    component({
      id: 'website',
      name: 'Website',
      group: 'Community',
      live: { ...emptyLive(), checkedAt: FIXTURE_NOW - 12_000, latencyMs: 118 },
      days: dayBars(FIXTURE_NOW, { seed: 99, outageDays: [17] }),
    }),
    component({ id: 'discord', name: 'Discord bot', group: 'Community' }),
  ];
}

function resolvedIncidents(): SnapshotIncident[] {
  return [
    {
      id: 'inc_proxy',
      title: 'Players disconnected from every server',
      status: 'resolved',
      impact: 'major',
      startedAt: FIXTURE_NOW - 3 * DAY - 2 * HOUR,
      resolvedAt: FIXTURE_NOW - 3 * DAY - HOUR - 18 * MINUTE,
      components: [{ id: 'lobby', name: 'Lobby' }],
      updates: [
        { id: 'p1', status: 'investigating', message: 'Everyone was kicked with "Timed out". Looking into the proxy.', at: FIXTURE_NOW - 3 * DAY - 2 * HOUR },
        { id: 'p2', status: 'identified', message: 'The host had a network blip; the proxy is restarting.', at: FIXTURE_NOW - 3 * DAY - HOUR - 40 * MINUTE },
        { id: 'p3', status: 'resolved', message: 'All servers are reachable again. Sorry for the interruption!', at: FIXTURE_NOW - 3 * DAY - HOUR - 18 * MINUTE },
      ],
    },
    {
      id: 'inc_web',
      title: 'Website slow to load',
      status: 'resolved',
      impact: 'minor',
      startedAt: FIXTURE_NOW - 9 * DAY - 5 * HOUR,
      resolvedAt: FIXTURE_NOW - 9 * DAY - 4 * HOUR,
      components: [{ id: 'website', name: 'Website' }],
      updates: [{ id: 'w1', status: 'resolved', message: 'A cache misconfiguration was fixed.', at: FIXTURE_NOW - 9 * DAY - 4 * HOUR }],
    },
  ];
}

function minecraftLive(players: number, maxPlayers: number | null, latencyMs: number, version: string, motd: string | null): LiveData {
  return { checkedAt: FIXTURE_NOW - 20_000, latencyMs, players, maxPlayers, version, motd, message: null };
}

function emptyLive(): LiveData {
  return { checkedAt: null, latencyMs: null, players: null, maxPlayers: null, version: null, motd: null, message: null };
}

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
