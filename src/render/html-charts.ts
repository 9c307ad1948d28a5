// The charts of the HTML status page: response time (p50, p95) and players (fewest–most band, average line) as inline SVG.
import {
  CHART_RANGES,
  type ChartRange,
  type LatencySeries,
  type LocationChart,
  type PlayersSeries,
  type SnapshotComponent,
} from '../domain/snapshot.js';
import { escapeHtml } from './html-layout.js';
import type { MessageKey, Translator } from './i18n/index.js';
import { countText } from './i18n/wording.js';

/** The window the page's charts show when the query string chooses none. */
export const DEFAULT_CHART_RANGE: ChartRange = '24h';

/** The HTML page's options from its query string: `range` (7d, 30d; 24h is the default and sets nothing, so one cache entry serves it). */
export function htmlPageOptions(query: URLSearchParams): Record<string, string> {
  const range = query.get('range');
  return range !== null && range !== DEFAULT_CHART_RANGE && (CHART_RANGES as readonly string[]).includes(range)
    ? { range }
    : {};
}

/** A chart range from an option value; the default for anything else. */
export function chartRange(value: string | undefined): ChartRange {
  return (CHART_RANGES as readonly string[]).includes(value ?? '') ? (value as ChartRange) : DEFAULT_CHART_RANGE;
}

/**
 * "24 h · 7 d · 30 d": plain links (no script needed) back to the components, the active one marked. Relative
 * (`?range=…`), so they work on the slug path and on a custom domain alike; `keepQuery` (`lang=de&`) keeps the
 * reader's other choices.
 */
export function chartRangeNavHtml(i18n: Translator, range: ChartRange, keepQuery = ''): string {
  const links = CHART_RANGES.map((r) => {
    const current = r === range ? ' aria-current="page"' : '';
    return `<a href="?${escapeHtml(keepQuery)}range=${r}#components-title"${current}>${escapeHtml(i18n.t(RANGE_SHORT[r]))}</a>`;
  });
  return `<nav class="ranges" aria-label="${escapeHtml(i18n.t('page.chart.ranges'))}">${links.join(' · ')}</nav>`;
}

/** Whether any component has a chart: the range links show only then. */
export function hasCharts(components: readonly SnapshotComponent[]): boolean {
  return components.some((c) => c.charts.latency !== null || c.charts.players !== null);
}

/** The charts of one component for one window; nothing when its monitor measured nothing to chart. */
export function componentChartsHtml(i18n: Translator, component: SnapshotComponent, range: ChartRange): string {
  const { latency, players, locations } = component.charts;
  const charts = [
    latency ? latencyChart(i18n, latency[range], range) : '',
    locations && locations.length > 1 ? locationsChart(i18n, locations, range) : '',
    players ? playersChart(i18n, players[range], range) : '',
  ];
  return charts.some((c) => c !== '') ? `<div class="charts">${charts.join('')}</div>` : '';
}

const RANGE_SHORT: Record<ChartRange, MessageKey> = {
  '24h': 'page.chart.range24h',
  '7d': 'page.chart.range7d',
  '30d': 'page.chart.range30d',
};
const RANGE_LONG: Record<ChartRange, MessageKey> = {
  '24h': 'page.chart.window24h',
  '7d': 'page.chart.window7d',
  '30d': 'page.chart.window30d',
};

function latencyChart(i18n: Translator, series: LatencySeries, range: ChartRange): string {
  const window = i18n.t(RANGE_LONG[range]);
  const { p50, p95 } = series.summary;
  const top = niceCeiling(Math.max(0, ...series.p95.map((v) => v ?? 0), ...series.p50.map((v) => v ?? 0)));
  const ms = (value: number) => i18n.t('page.chart.ms', { ms: countText(i18n, value) });
  const label =
    p50 === null || p95 === null
      ? i18n.t('page.chart.latencyNoData', { window })
      : i18n.t('page.chart.latencyLabel', { window, p50: ms(p50), p95: ms(p95) });
  const key =
    p50 === null || p95 === null
      ? ''
      : `<span class="k50">${escapeHtml(i18n.t('page.chart.median', { value: ms(p50) }))}</span>` +
        `<span class="k95">${escapeHtml(i18n.t('page.chart.p95', { value: ms(p95) }))}</span>`;
  const last = lastIndex(series.p50);
  const latest =
    last === -1
      ? ''
      : i18n.t('page.chart.latencyLatest', {
          p50: ms(series.p50[last] as number),
          p95: ms(series.p95[last] ?? (series.p50[last] as number)),
        });
  const paths = `<path class="l95" d="${linePath(series.p95, top)}"/><path class="l50" d="${linePath(series.p50, top)}"/>`;
  return chartHtml(i18n.t('page.chart.latencyTitle'), key, ms(top), series.p50.length, label, paths, latest);
}

/** Places drawn apart at most (a monitor has at most 9); the rest share the last colour. */
const LOCATION_COLOURS = 5;

/** One line per place the monitor is checked from (its average), each keyed by the place's name. */
function locationsChart(i18n: Translator, locations: readonly LocationChart[], range: ChartRange): string {
  const window = i18n.t(RANGE_LONG[range]);
  const ms = (value: number) => i18n.t('page.chart.ms', { ms: countText(i18n, value) });
  const named = locations.map((l) => ({ name: l.name ?? i18n.t('page.chart.locationHere'), series: l.latency[range] }));
  const top = niceCeiling(Math.max(0, ...named.flatMap((l) => l.series.avg.map((v) => v ?? 0))));
  const colour = (i: number) => `loc${Math.min(i, LOCATION_COLOURS - 1)}`;
  const places = named.map(({ name, series }) =>
    series.summary.avg === null
      ? i18n.t('page.chart.locationNoData', { place: name })
      : i18n.t('page.chart.locationAverage', { place: name, value: ms(series.summary.avg) }),
  );
  const key = places.map((place, i) => `<span class="kloc ${colour(i)}">${escapeHtml(place)}</span>`).join('');
  const label = i18n.t('page.chart.locationsLabel', { window, places: places.join(', ') });
  const paths = named.map((l, i) => `<path class="lloc ${colour(i)}" d="${linePath(l.series.avg, top)}"/>`).join('');
  const points = named[0]?.series.avg.length ?? 0;
  return chartHtml(i18n.t('page.chart.locationsTitle'), key, ms(top), points, label, paths, '');
}

function playersChart(i18n: Translator, series: PlayersSeries, range: ChartRange): string {
  const window = i18n.t(RANGE_LONG[range]);
  const { min, avg, max } = series.summary;
  const top = niceCeiling(Math.max(0, ...series.max.map((v) => v ?? 0)));
  const known = min !== null && avg !== null && max !== null;
  const label = known
    ? i18n.t('page.chart.playersLabel', {
        window,
        avg: countText(i18n, avg),
        min: countText(i18n, min),
        max: countText(i18n, max),
      })
    : i18n.t('page.chart.playersNoData', { window });
  const key = known
    ? `<span class="kavg">${escapeHtml(i18n.t('page.chart.average', { value: countText(i18n, avg) }))}</span>` +
      `<span class="kband">${escapeHtml(i18n.t('page.chart.span', { min: countText(i18n, min), max: countText(i18n, max) }))}</span>`
    : '';
  const last = lastIndex(series.max);
  const latest =
    last === -1
      ? ''
      : i18n.t('page.chart.playersLatest', {
          min: countText(i18n, series.min[last] ?? 0),
          max: countText(i18n, series.max[last] ?? 0),
          avg: countText(i18n, series.avg[last] ?? 0),
        });
  const paths = `<path class="band" d="${bandPath(series.min, series.max, top)}"/><path class="lavg" d="${linePath(series.avg, top)}"/>`;
  return chartHtml(
    i18n.t('page.chart.playersTitle'),
    key,
    countText(i18n, top),
    series.max.length,
    label,
    paths,
    latest,
  );
}

/**
 * One chart: a visible key (hidden from assistive technology, which gets the image's label instead), the value at
 * the top of the scale, the SVG and a visually hidden sentence on the latest period. The SVG's user space is one
 * unit per point across and 100 units of value up, stretched to the box (preserveAspectRatio="none") with strokes
 * kept thin (vector-effect), so every coordinate is a small integer.
 */
function chartHtml(
  title: string,
  key: string,
  top: string,
  points: number,
  label: string,
  paths: string,
  latest: string,
): string {
  return (
    '<div class="chart">' +
    `<p class="chart-key" aria-hidden="true"><span class="chart-title">${escapeHtml(title)}</span>${key}</p>` +
    `<div class="plot"><span class="ymax" aria-hidden="true">${escapeHtml(top)}</span>` +
    `<svg viewBox="0 0 ${Math.max(points - 1, 1)} 100" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}">${paths}</svg></div>` +
    (latest ? `<p class="sr-only">${escapeHtml(latest)}</p>` : '') +
    '</div>'
  );
}

/** A line through the values, broken where a value is missing; a lone value is a dot (a round cap on no length). */
export function linePath(values: readonly (number | null)[], top: number): string {
  let d = '';
  let open = false;
  values.forEach((value, x) => {
    if (value === null) {
      open = false;
      return;
    }
    const y = scale(value, top);
    const alone = !open && (values[x + 1] ?? null) === null;
    d += open ? ` ${x} ${y}` : `M${x} ${y}`;
    if (alone) d += 'h0';
    open = true;
  });
  return d;
}

/** The area between the fewest and the most, one closed shape per run of periods with data. */
export function bandPath(low: readonly (number | null)[], high: readonly (number | null)[], top: number): string {
  let d = '';
  let run: number[] = [];
  const close = () => {
    if (run.length > 1) {
      d += run.map((x, i) => `${i === 0 ? 'M' : ' '}${x} ${scale(high[x] as number, top)}`).join('');
      d +=
        [...run]
          .reverse()
          .map((x) => ` ${x} ${scale(low[x] as number, top)}`)
          .join('') + 'Z';
    }
    run = [];
  };
  high.forEach((value, x) => {
    if (value === null || low[x] === null || low[x] === undefined) close();
    else run.push(x);
  });
  close();
  return d;
}

/** A value's height in the 0–100 user space, from the top (SVG's y grows downwards). */
function scale(value: number, top: number): number {
  return Math.round(100 - (Math.min(Math.max(value, 0), top) / top) * 100);
}

/** The top of a scale holding `value`: 1, 2 or 5 times a power of ten, at least 1. */
export function niceCeiling(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function lastIndex(values: readonly (number | null)[]): number {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null) return i;
  return -1;
}
