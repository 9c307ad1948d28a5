// Chart series and day incidents for fixture snapshots: deterministic, shaped like a real game server's day.
import type {
  ChartRange,
  ComponentCharts,
  DailyBar,
  LatencySeries,
  PlayersSeries,
  Snapshot,
  SnapshotComponent,
} from '../../src/domain/snapshot.js';
import { CHART_WINDOWS, chartStart } from '../../src/services/pages/snapshot-charts.js';
import { FIXTURE_NOW } from './snapshot-parts.js';

const RANGES: ChartRange[] = ['24h', '7d', '30d'];

/**
 * Charts of a monitor: response times around `latencyMs` (a slower evening, a spike now and then), and with `players`
 * an evening peak near `players.peak`; `gapHours` of the 24-hour window without data (a monitor that was off).
 */
export function chartsOf(
  seed: number,
  options: { latencyMs: number; players?: { peak: number }; gapHours?: number[] },
): ComponentCharts {
  const random = seeded(seed);
  const latency = {} as Record<ChartRange, LatencySeries>;
  const players = {} as Record<ChartRange, PlayersSeries>;
  for (const range of RANGES) {
    const { points, stepMs } = CHART_WINDOWS[range];
    const start = chartStart(range, FIXTURE_NOW);
    const p50: (number | null)[] = [];
    const p95: (number | null)[] = [];
    const min: (number | null)[] = [];
    const avg: (number | null)[] = [];
    const max: (number | null)[] = [];
    for (let i = 0; i < points; i++) {
      const at = start + i * stepMs;
      const gap = range === '24h' && options.gapHours?.includes(points - 1 - i);
      const evening = Math.sin(((new Date(at).getUTCHours() - 14) / 24) * 2 * Math.PI) * 0.5 + 0.5;
      const median = Math.round(options.latencyMs * (0.8 + 0.4 * evening + 0.2 * random()));
      p50.push(gap ? null : median);
      p95.push(gap ? null : Math.round(median * (1.6 + random() * (random() < 0.1 ? 4 : 0.8))));
      if (options.players) {
        const mean = Math.round(options.players.peak * (0.15 + 0.7 * evening) * (0.9 + 0.2 * random()));
        min.push(gap ? null : Math.round(mean * (range === '24h' ? 0.8 : 0.4)));
        avg.push(gap ? null : mean);
        max.push(gap ? null : Math.round(Math.min(options.players.peak, mean * (range === '24h' ? 1.2 : 1.6))));
      }
    }
    const known = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
    const sorted = known(p50).sort((a, b) => a - b);
    latency[range] = {
      start,
      stepMs,
      p50,
      p95,
      summary: { p50: sorted[Math.floor(sorted.length / 2)] ?? null, p95: Math.max(...known(p95)) },
    };
    if (options.players) {
      const averages = known(avg);
      players[range] = {
        start,
        stepMs,
        min,
        avg,
        max,
        summary: {
          min: Math.min(...known(min)),
          avg: Math.round(averages.reduce((a, b) => a + b, 0) / averages.length),
          max: Math.max(...known(max)),
        },
      };
    }
  }
  return { latency, players: options.players ? players : null };
}

/** The days with these incidents marked on them (`daysAgo` 0 is today). */
export function withDayIncidents(
  days: DailyBar[],
  marks: { daysAgo: number; id: string; title: string }[],
): DailyBar[] {
  return days.map((day, i) => {
    const ago = days.length - 1 - i;
    const incidents = marks.filter((m) => m.daysAgo === ago).map(({ id, title }) => ({ id, title }));
    return incidents.length === 0 ? day : { ...day, incidents: [...day.incidents, ...incidents] };
  });
}

/**
 * The snapshot with charts on every component (players where it reports them) and an incident on
 * each bad day: a page using everything the components section can show, for size budgets.
 */
export function withCharts(snapshot: Snapshot): Snapshot {
  const components = snapshot.components.map((c, i): SnapshotComponent => {
    const latencyMs = c.live?.latencyMs ?? 40 + i;
    const marks = c.days.flatMap((day, index) =>
      day.state === 'down' || day.state === 'degraded'
        ? [{ daysAgo: c.days.length - 1 - index, id: `inc_${c.id}_${index}`, title: `Lag spikes on ${c.name}` }]
        : [],
    );
    return {
      ...c,
      days: withDayIncidents(c.days, marks),
      charts: chartsOf(i + 1, {
        latencyMs,
        ...(c.live?.players != null ? { players: { peak: c.live.maxPlayers ?? 100 } } : {}),
      }),
    };
  });
  return { ...snapshot, components };
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
