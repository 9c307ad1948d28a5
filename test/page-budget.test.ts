// The HTML status page stays within issue 17's budget: under 60 KB gzipped for 50 components with 90-day strips
// (each day's details in its bar) and charts, in every chart window.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHART_RANGES } from '../src/domain/snapshot.js';
import { renderHtmlPage } from '../src/render/html-page.js';
import { withCharts } from './fakes/snapshot-charts.js';
import { largeSnapshot } from './fakes/snapshots.js';

const PAGE_BUDGET_GZIP_BYTES = 60 * 1024;

describe('the HTML page of a 50-component network', () => {
  const snapshot = withCharts(largeSnapshot());

  it('renders everything the components section can show: 90 bars and a chart or two each', () => {
    expect(snapshot.components).toHaveLength(50);
    expect(snapshot.components.every((c) => c.days.length === 90 && c.charts.latency !== null)).toBe(true);
    expect(snapshot.components.filter((c) => c.charts.players !== null).length).toBeGreaterThan(30);
    expect(snapshot.components.some((c) => c.days.some((d) => d.incidents.length > 0))).toBe(true);
  });

  for (const range of CHART_RANGES) {
    it(`is under 60 KB gzipped with the ${range} charts`, () => {
      const { body } = renderHtmlPage(snapshot, {
        jsonPath: '/status.json',
        markdownPath: '/status.md',
        feedPath: '/feed.xml',
        refreshSeconds: 30,
        range,
      });
      expect(
        body.match(/<svg viewBox="0 0 \d+ 100" preserveAspectRatio="none" role="img"/g)?.length,
      ).toBeGreaterThanOrEqual(80);
      expect(body.match(/<span class="[ogdmu]" title="/g)).toHaveLength(50 * 90);
      const gzipped = gzipSync(body).length;
      expect(gzipped).toBeLessThan(PAGE_BUDGET_GZIP_BYTES);
    });
  }
});
