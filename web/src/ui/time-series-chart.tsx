// A time-series chart (uPlot: canvas, fast with thousands of points) sized to its container and themed for light and
// dark; a canvas says nothing to a screen reader, so the caption summarizes each series. Import it only from
// lazy screens: uPlot stays out of the initial bundle.
import { useComputedColorScheme, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  /** One value per time, null for a gap. */
  values: readonly (number | null)[];
  /** A CSS colour (a Mantine variable works). */
  color: string;
  unit?: string;
}

export interface TimeSeriesChartProps {
  /** Epoch milliseconds, ascending. */
  times: readonly number[];
  series: readonly Series[];
  /** Names the chart for screen readers. */
  label: string;
  height?: number;
}

export function TimeSeriesChart({ times, series, label, height = 240 }: TimeSeriesChartProps) {
  const { ref, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const dark = useComputedColorScheme('light') === 'dark';

  useEffect(() => {
    if (!target.current || width === 0) return;
    const axis = { stroke: dark ? '#c9c9c9' : '#495057', grid: { stroke: dark ? '#373a40' : '#e9ecef' } };
    const chart = new uPlot(
      {
        width,
        height,
        series: [
          {},
          ...series.map((s) => ({ label: s.label, stroke: resolveColor(s.color), width: 1.5, spanGaps: false })),
        ],
        axes: [axis, axis],
        legend: { show: series.length > 1 },
      },
      [times.map((t) => t / 1000), ...series.map((s) => [...s.values])] as uPlot.AlignedData,
      target.current,
    );
    return () => chart.destroy();
  }, [times, series, width, height, dark]);

  return (
    <figure ref={ref} style={{ margin: 0 }} aria-label={label}>
      <div ref={target} aria-hidden="true" />
      <VisuallyHidden component="figcaption">
        {label}: {series.map(summary).join('; ')}
      </VisuallyHidden>
    </figure>
  );
}

function summary(s: Series): string {
  const known = s.values.filter((v): v is number => v !== null);
  if (known.length === 0) return `${s.label}: no data`;
  const unit = s.unit ? ` ${s.unit}` : '';
  return `${s.label} from ${Math.min(...known)} to ${Math.max(...known)}${unit}, latest ${known.at(-1)}${unit}`;
}

/** uPlot draws on a canvas, which does not read CSS variables: resolve them first. */
function resolveColor(color: string): string {
  const variable = /^var\((--[\w-]+)\)$/.exec(color)?.[1];
  return variable ? getComputedStyle(document.documentElement).getPropertyValue(variable).trim() || '#228be6' : color;
}
