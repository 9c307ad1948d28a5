// Realistic status page snapshots, shared by the renderers' tests, the browser tests and the benchmarks.

import type { PageState, Snapshot, SnapshotComponent, SnapshotIncident } from '../../src/domain/snapshot.js';
import { hostileSnapshot } from './hostile-snapshot.js';
import { chartsOf, withDayIncidents } from './snapshot-charts.js';
import {
  component,
  DAY,
  dayBars,
  emptyLive,
  FIXTURE_NOW,
  HOUR,
  MINUTE,
  maintenanceWindow,
  minecraftLive,
  snapshotOf,
} from './snapshot-parts.js';

export {
  component,
  dayBars,
  FIXTURE_NOW,
  incident,
  maintenanceWindow,
  snapshotOf,
  uptimeOf,
} from './snapshot-parts.js';
export { hostileSnapshot };

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
  const active = maintenanceWindow({
    id: 'mnt_weekly',
    title: 'Weekly world backup and restart',
    description:
      'Creative is restarting after its weekly backup.\nBuilds are safe; expect about 45 minutes of downtime.',
    startsAt: FIXTURE_NOW - 35 * MINUTE,
    endsAt: FIXTURE_NOW + 10 * MINUTE,
    status: 'in_progress',
    components: [{ id: 'creative', name: 'Creative' }],
    repeats: 'Every Friday at 14:30 (Europe/Berlin), 45 min',
  });
  const upcoming = maintenanceWindow({
    id: 'mnt_db',
    title: 'Database upgrade',
    description: 'Player data moves to a faster database. Every server restarts once.',
    startsAt: FIXTURE_NOW + 2 * DAY + 6 * HOUR,
    endsAt: FIXTURE_NOW + 2 * DAY + 8 * HOUR,
    components: [
      { id: 'survival', name: 'Survival' },
      { id: 'creative', name: 'Creative' },
      { id: 'website', name: 'Website' },
    ],
  });
  return snapshotOf(components, { maintenance: { active: [active], upcoming: [upcoming] } });
}

/** Lag on the survival server under investigation, with three updates, plus two resolved incidents of last week. */
export function activeIncidentSnapshot(): Snapshot {
  const components = networkComponents().map((c) =>
    c.id === 'survival'
      ? {
          ...c,
          state: 'degraded' as const,
          monitorState: 'degraded' as const,
          since: FIXTURE_NOW - 50 * MINUTE,
          days: withDayIncidents(c.days, [{ daysAgo: 0, id: 'inc_lag', title: 'Lag spikes on Survival' }]),
        }
      : c,
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
      {
        id: 'upd_1',
        status: 'investigating',
        message: 'Players report rubber-banding on Survival. We are looking into it.',
        at: FIXTURE_NOW - 55 * MINUTE,
      },
      {
        id: 'upd_2',
        status: 'identified',
        message: 'A runaway redstone clock near spawn was pinning the main thread.\nIt has been removed.',
        at: FIXTURE_NOW - 30 * MINUTE,
      },
      {
        id: 'upd_3',
        status: 'monitoring',
        message: 'TPS is back to 20. We are watching it for the next hour.',
        at: FIXTURE_NOW - 5 * MINUTE,
      },
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
    const state: PageState =
      i === 7 ? 'down' : i === 13 || i === 31 ? 'degraded' : i === 44 ? 'unknown' : 'operational';
    const days = dayBars(FIXTURE_NOW, {
      seed: i + 11,
      outageDays: i === 7 ? [0, 23] : [],
      newDays: i === 44 ? 12 : undefined,
    });
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

function networkComponents(): SnapshotComponent[] {
  return [
    component({
      id: 'lobby',
      name: 'Lobby',
      group: 'Game servers',
      description: 'play.blockhaven.example',
      live: minecraftLive(
        42,
        500,
        23,
        'Velocity 3.4 (1.8–1.21.4)',
        'Blockhaven Network\nSurvival · Creative · Minigames',
      ),
      days: withDayIncidents(dayBars(FIXTURE_NOW, { seed: 5 }), [
        { daysAgo: 3, id: 'inc_proxy', title: 'Players disconnected from every server' },
      ]),
      charts: chartsOf(1, { latencyMs: 23, players: { peak: 500 } }),
    }),
    component({
      id: 'survival',
      name: 'Survival',
      group: 'Game servers',
      live: minecraftLive(87, 200, 31, 'Paper 1.21.4', null),
      // The monitor was off for two hours this morning: a gap in the charts.
      charts: chartsOf(2, { latencyMs: 31, players: { peak: 200 }, gapHours: [5, 6] }),
    }),
    component({
      id: 'creative',
      name: 'Creative',
      group: 'Game servers',
      live: minecraftLive(12, 100, 29, 'Paper 1.21.4', null),
    }),
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
      days: withDayIncidents(dayBars(FIXTURE_NOW, { seed: 99, outageDays: [17] }), [
        { daysAgo: 9, id: 'inc_web', title: 'Website slow to load' },
      ]),
      charts: chartsOf(5, { latencyMs: 118 }),
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
        {
          id: 'p1',
          status: 'investigating',
          message: 'Everyone was kicked with "Timed out". Looking into the proxy.',
          at: FIXTURE_NOW - 3 * DAY - 2 * HOUR,
        },
        {
          id: 'p2',
          status: 'identified',
          message: 'The host had a network blip; the proxy is restarting.',
          at: FIXTURE_NOW - 3 * DAY - HOUR - 40 * MINUTE,
        },
        {
          id: 'p3',
          status: 'resolved',
          message: 'All servers are reachable again. Sorry for the interruption!',
          at: FIXTURE_NOW - 3 * DAY - HOUR - 18 * MINUTE,
        },
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
      updates: [
        {
          id: 'w1',
          status: 'resolved',
          message: 'A cache misconfiguration was fixed.',
          at: FIXTURE_NOW - 9 * DAY - 4 * HOUR,
        },
      ],
    },
  ];
}
