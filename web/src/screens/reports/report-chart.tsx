// A report's series drawn: availability (or downtime) per day or month, one line per subject (the first ten), with the
// dashboard's uPlot chart, loaded in its own chunk when first drawn.
import { Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { ReportSubject } from '../../api/reports';
// A type only: uPlot itself comes with the chart's own chunk.
import type { Series } from '../../ui/time-series-chart';

const TimeSeriesChart = lazy(() => import('../../ui/time-series-chart').then((m) => ({ default: m.TimeSeriesChart })));

const COLORS = ['blue', 'orange', 'teal', 'grape', 'red', 'cyan', 'lime', 'pink', 'indigo', 'yellow'].map(
  (c) => `var(--mantine-color-${c}-6)`,
);
const MOST_LINES = COLORS.length;

type Measure = 'availability' | 'downMinutes';
const MEASURES: readonly { value: Measure; label: string; unit: string }[] = [
  { value: 'availability', label: 'Availability', unit: '%' },
  { value: 'downMinutes', label: 'Downtime', unit: 'min' },
];

export function ReportChart({ subjects, per }: { subjects: readonly ReportSubject[]; per: 'day' | 'month' }) {
  const [measure, setMeasure] = useState<Measure>('availability');
  const shown = useMemo(() => subjects.slice(0, MOST_LINES), [subjects]);
  const times = useMemo(() => shown[0]?.series.map((p) => p.from) ?? [], [shown]);
  const unit = MEASURES.find((m) => m.value === measure)?.unit ?? '';
  const lines = useMemo(
    (): Series[] =>
      shown.map((s, i) => ({
        label: s.name,
        unit,
        color: COLORS[i % COLORS.length] as string,
        values: s.series.map((p) => p[measure]),
      })),
    [shown, measure, unit],
  );
  const label = `${measure === 'availability' ? 'Availability' : 'Downtime'} per ${per}`;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4">
          {label}
        </Title>
        <SegmentedControl
          aria-label="Chart shows"
          size="xs"
          data={MEASURES.map(({ value, label }) => ({ value, label }))}
          value={measure}
          onChange={(v) => setMeasure(v as Measure)}
        />
      </Group>
      {times.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing to draw.
        </Text>
      ) : (
        <Suspense fallback={<Skeleton height={260} />}>
          <TimeSeriesChart times={times} series={lines} label={label} height={260} />
        </Suspense>
      )}
      {subjects.length > MOST_LINES && (
        <Text size="xs" c="dimmed">
          The chart draws the first {MOST_LINES} subjects; the table and the downloads have all {subjects.length}.
        </Text>
      )}
    </Stack>
  );
}
