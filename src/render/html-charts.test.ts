// The components' charts on the HTML page: the chosen window only, labelled for assistive technology, compact paths.
import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, operationalSnapshot } from '../../test/fakes/snapshots.js';
import { bandPath, chartRange, htmlPageOptions, linePath, niceCeiling } from './html-charts.js';
import { type HtmlPageOptions, renderHtmlPage } from './html-page.js';

const OPTIONS: HtmlPageOptions = { jsonPath: '/status.json', markdownPath: '/status.md', refreshSeconds: 30 };

/** The markup of one component, from its <li> to the next. */
function componentMarkup(html: string, id: string): string {
  const start = html.lastIndexOf('<li', html.indexOf(`data-component-id="${id}"`));
  const next = html.indexOf('<li class="component"', start + 1);
  return html.slice(start, next === -1 ? undefined : next);
}

const svgLabels = (html: string) =>
  [...html.matchAll(/<svg viewBox="[^"]+" preserveAspectRatio="none" role="img" aria-label="([^"]+)">/g)].map(
    (m) => m[1],
  );

describe('the charts of the HTML page', () => {
  it('draws response time and players for a game server, response time alone for a website, nothing without data', () => {
    const body = renderHtmlPage(operationalSnapshot(), OPTIONS).body;
    expect(svgLabels(componentMarkup(body, 'lobby'))).toEqual([
      expect.stringMatching(/^Response time over 24 hours: median \d+ ms, 95th percentile \d+ ms$/),
      expect.stringMatching(/^Players over 24 hours: average \d+, fewest \d+, most \d+$/),
    ]);
    expect(svgLabels(componentMarkup(body, 'website'))).toEqual([
      expect.stringMatching(/^Response time over 24 hours: /),
    ]);
    expect(componentMarkup(body, 'discord')).not.toContain('class="charts"');
    expect(componentMarkup(body, 'creative')).not.toContain('class="charts"');
  });

  it('shows only the chosen window, with its points, and marks the chosen link', () => {
    const snapshot = operationalSnapshot();
    const lobby = snapshot.components.find((c) => c.id === 'lobby')!;
    for (const [range, points, words] of [
      ['24h', 24, '24 hours'],
      ['7d', 28, '7 days'],
      ['30d', 30, '30 days'],
    ] as const) {
      const body = renderHtmlPage(snapshot, { ...OPTIONS, range }).body;
      const markup = componentMarkup(body, 'lobby');
      expect(markup.match(/<svg viewBox="0 0 (\d+) 100"/g)).toEqual([
        `<svg viewBox="0 0 ${points - 1} 100"`,
        `<svg viewBox="0 0 ${points - 1} 100"`,
      ]);
      expect(svgLabels(markup).every((label) => label?.includes(`over ${words}:`))).toBe(true);
      const median = lobby.charts.latency![range].summary.p50;
      expect(markup).toContain(`aria-label="Response time over ${words}: median ${median} ms`);
      expect(body).toContain(`<a href="?range=${range}#components-title" aria-current="page">`);
      expect(body.match(/aria-current="page"/g)).toHaveLength(1);
    }
    const nav = /<nav class="ranges" aria-label="Chart period">(.*?)<\/nav>/.exec(
      renderHtmlPage(snapshot, OPTIONS).body,
    )?.[1];
    expect(nav?.replace(/<[^>]+>/g, '')).toBe('24 h · 7 d · 30 d');
  });

  it('keeps the reader’s language in the range links, and the range in the language links', () => {
    const body = renderHtmlPage(operationalSnapshot(), { ...OPTIONS, range: '30d', pickedLanguage: 'de' }).body;
    expect(body).toContain('<a href="?lang=de&amp;range=7d#components-title">');
    expect(body).toContain('href="?lang=fr&amp;range=30d"');
    expect(renderHtmlPage(operationalSnapshot(), OPTIONS).body).toContain('href="?lang=fr"');
  });

  it('has no range links on a page without charts', () => {
    const snapshot = operationalSnapshot();
    const bare = {
      ...snapshot,
      components: snapshot.components.map((c) => ({ ...c, charts: { latency: null, players: null } })),
    };
    expect(renderHtmlPage(bare, OPTIONS).body).not.toContain('class="ranges"');
  });

  it('describes each chart in words: a key, the top of the scale, and the latest period for screen readers', () => {
    const markup = componentMarkup(renderHtmlPage(operationalSnapshot(), OPTIONS).body, 'lobby');
    expect(markup).toMatch(
      /<p class="chart-key" aria-hidden="true"><span class="chart-title">Response time<\/span><span class="k50">median \d+ ms<\/span><span class="k95">95th percentile \d+ ms<\/span><\/p>/,
    );
    expect(markup).toMatch(/<span class="ymax" aria-hidden="true">\d+ ms<\/span>/);
    expect(markup).toMatch(/<p class="sr-only">Latest period: median \d+ ms, 95th percentile \d+ ms\.<\/p>/);
    expect(markup).toMatch(/<p class="sr-only">Latest period: \d+ to \d+ players, \d+ on average\.<\/p>/);
  });

  it('draws each series as one path of small integers, broken where data is missing', () => {
    const markup = componentMarkup(renderHtmlPage(activeIncidentSnapshot(), OPTIONS).body, 'survival');
    const paths = [...markup.matchAll(/<path class="(l50|l95|band|lavg)" d="([^"]*)"\/>/g)];
    expect(paths.map((p) => p[1])).toEqual(['l95', 'l50', 'band', 'lavg']);
    for (const [, , d] of paths) expect(d).toMatch(/^(M\d+ \d+( \d+ \d+)*(h0)?Z?)+$/);
    // Survival's monitor was off two hours this morning: each line is two runs.
    expect(paths.find((p) => p[1] === 'l50')?.[2]?.match(/M/g)).toHaveLength(2);
  });
});

describe('chart paths', () => {
  it('scales values into 0–100 from the top, breaking lines at gaps and dotting lone points', () => {
    expect(linePath([0, 50, 100], 100)).toBe('M0 100 1 50 2 0');
    expect(linePath([10, null, 20, 30, null, null, 40], 40)).toBe('M0 75h0M2 50 3 25M6 0h0');
    expect(linePath([null, null], 10)).toBe('');
    expect(bandPath([1, 2, null, 3], [5, 6, null, 7], 10)).toBe('M0 50 1 40 1 80 0 90Z');
    expect(bandPath([1, 2, 3], [5, 6, 7], 10)).toBe('M0 50 1 40 2 30 2 70 1 80 0 90Z');
  });

  it('tops the scale at 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 42, 120, 200, 201, 4999].map(niceCeiling)).toEqual([1, 1, 5, 50, 200, 200, 500, 5000]);
  });
});

describe('the range option', () => {
  it('takes 7d and 30d from the query string; 24h, the default, and anything else set nothing', () => {
    const options = (query: string) => htmlPageOptions(new URLSearchParams(query));
    expect(options('range=7d')).toEqual({ range: '7d' });
    expect(options('range=30d&x=1')).toEqual({ range: '30d' });
    for (const query of ['', 'range=24h', 'range=90d', 'range=', 'range=7D']) expect(options(query)).toEqual({});
    expect([chartRange(undefined), chartRange('7d'), chartRange('1y')]).toEqual(['24h', '7d', '24h']);
  });
});
