// A multi-location monitor's response time, one line per location (hourly averages from
// GET /api/v1/monitors/{id}/latency) over the last 24 hours or 7 days. The chart (uPlot) comes with its own chunk.
import { Group, SegmentedControl, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { monitorLatencyQuery } from '../../api/monitors';
import { useOrganizationKey } from '../../api/organization';
import type { components } from '../../api/schema';
import { ErrorState } from '../../ui/states';
// A type only: uPlot itself comes with the chart's own chunk.
import type { Series } from '../../ui/time-series-chart';
import { useLocationName } from './location-names';

type Latency = components['schemas']['MonitorLatency'];

const TimeSeriesChart = lazy(() => import('../../ui/time-series-chart').then((m) => ({ default: m.TimeSeriesChart })));

const RANGES = [
  { value: '24', label: '24 h' },
  { value: '168', label: '7 d' },
];
const COLORS = ['blue', 'orange', 'teal', 'grape', 'red', 'lime', 'cyan', 'pink', 'yellow'].map(
  (c) => `var(--mantine-color-${c}-6)`,
);

export function LocationLatency({ monitorId }: { monitorId: string }) {
  const [hours, setHours] = useState('24');
  const latency = useQuery(monitorLatencyQuery(useOrganizationKey(), monitorId, Number(hours)));
  const nameOf = useLocationName();
  const label = `Response time by location over the last ${hours === '24' ? '24 hours' : '7 days'}`;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h5">
          Response time by location
        </Title>
        <SegmentedControl
          aria-label="Time range by location"
          size="xs"
          data={RANGES}
          value={hours}
          onChange={setHours}
        />
      </Group>
      {latency.error ? (
        <ErrorState
          error={latency.error}
          onRetry={() => void latency.refetch()}
          title="Could not load the response times by location"
        />
      ) : !latency.data ? (
        <Skeleton height={240} />
      ) : (
        <Chart latency={latency.data} label={label} nameOf={nameOf} />
      )}
    </Stack>
  );
}

function Chart({ latency, label, nameOf }: { latency: Latency; label: string; nameOf: (l: string) => string }) {
  const { times, series } = useMemo(() => linesOf(latency, nameOf), [latency, nameOf]);
  return (
    <Suspense fallback={<Skeleton height={240} />}>
      <TimeSeriesChart times={times} series={series} label={label} />
    </Suspense>
  );
}

/** The hours any location has, and each location's average at each (null where it has none: a gap in its line). */
export function linesOf(latency: Latency, nameOf: (l: string) => string): { times: number[]; series: Series[] } {
  const times = [...new Set(latency.series.flatMap((s) => s.points.map((p) => p.start)))].sort((a, b) => a - b);
  const series = latency.series.map((s, i) => {
    const at = new Map(s.points.map((p) => [p.start, p.latencyAvgMs === null ? null : Math.round(p.latencyAvgMs)]));
    return {
      label: nameOf(s.location),
      unit: 'ms',
      color: COLORS[i % COLORS.length] as string,
      values: times.map((t) => at.get(t) ?? null),
    };
  });
  return { times, series };
}
