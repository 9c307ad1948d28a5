// A monitor's response times (p50 and p95) and, for game servers, players over 24 h, 7 d, 30 d or 90 d, from
// GET /api/v1/monitors/{id}/stats. The chart (uPlot) is loaded only when it is first drawn.
import { Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { monitorStatsQuery, PLAYER_TYPES, STATS_RANGES, type StatsRange } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import type { components } from '../../api/schema';
import { ErrorState } from '../../ui/states';
// A type only: uPlot itself comes with the chart's own chunk.
import type { Series } from '../../ui/time-series-chart';

type Stats = components['schemas']['MonitorStats'];

const TimeSeriesChart = lazy(() => import('../../ui/time-series-chart').then((m) => ({ default: m.TimeSeriesChart })));

export function ResponseChart({ monitorId, type }: { monitorId: string; type: string }) {
  const [range, setRange] = useState<StatsRange>('24h');
  const stats = useQuery(monitorStatsQuery(useOrganizationKey(), monitorId, range));
  const data = stats.data;
  const showPlayers = PLAYER_TYPES.has(type) || (data?.points.some((p) => p.playersMax !== null) ?? false);
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4">
          Response time
        </Title>
        <SegmentedControl
          aria-label="Time range"
          size="xs"
          data={[...STATS_RANGES]}
          value={range}
          onChange={(v) => setRange(v as StatsRange)}
        />
      </Group>
      {stats.error ? (
        <ErrorState
          error={stats.error}
          onRetry={() => void stats.refetch()}
          title="Could not load the response times"
        />
      ) : !data ? (
        <Skeleton height={240} />
      ) : (
        <>
          <Totals totals={data.totals} />
          <Chart stats={data} label={`Response time over the last ${rangeLabel(range)}`} series={latencySeries} />
          {showPlayers && (
            <>
              <Title order={2} size="h4">
                Players
              </Title>
              <Chart
                stats={data}
                label={`Players over the last ${rangeLabel(range)}`}
                series={playerSeries}
                height={180}
              />
            </>
          )}
        </>
      )}
    </Stack>
  );
}

const latencySeries = (points: Stats['points']): Series[] => [
  { label: 'p50', unit: 'ms', color: 'var(--mantine-color-blue-6)', values: points.map((p) => p.p50Ms) },
  { label: 'p95', unit: 'ms', color: 'var(--mantine-color-orange-6)', values: points.map((p) => p.p95Ms) },
];
const playerSeries = (points: Stats['points']): Series[] => [
  { label: 'average', color: 'var(--mantine-color-teal-6)', values: points.map((p) => p.playersAvg) },
  { label: 'peak', color: 'var(--mantine-color-grape-6)', values: points.map((p) => p.playersMax) },
];

function Chart({
  stats,
  label,
  series,
  height = 240,
}: {
  stats: Stats;
  label: string;
  series: (points: Stats['points']) => Series[];
  height?: number;
}) {
  const times = useMemo(() => stats.points.map((p) => p.at), [stats]);
  const lines = useMemo(() => series(stats.points), [stats, series]);
  return (
    <Suspense fallback={<Skeleton height={height} />}>
      <TimeSeriesChart times={times} series={lines} label={label} height={height} />
    </Suspense>
  );
}

function Totals({ totals }: { totals: Stats['totals'] }) {
  const ms = (v: number | null) => (v === null ? '–' : `${Math.round(v)} ms`);
  const items = [
    ['Uptime', totals.uptime === null ? '–' : `${(totals.uptime * 100).toFixed(2)} %`],
    ['p50', ms(totals.p50Ms)],
    ['p95', ms(totals.p95Ms)],
    ['Checks', totals.count.toLocaleString()],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" component="dl" m={0}>
      {items.map(([term, value]) => (
        <div key={term}>
          <Text component="dt" size="xs" c="dimmed">
            {term}
          </Text>
          <Text component="dd" m={0} fw={600}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

function rangeLabel(range: StatsRange): string {
  return { '24h': '24 hours', '7d': '7 days', '30d': '30 days', '90d': '90 days' }[range];
}
