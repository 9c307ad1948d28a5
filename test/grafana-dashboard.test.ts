// deploy/grafana-dashboard.json cannot rot: it is importable (a Prometheus datasource variable, every panel on it), and
// every metric its PromQL names is in a real scrape of a running Warden, on each store (the pool's on PostgreSQL only).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScrape, type Scrape } from './prometheus-text.js';
import { type SeededWarden, startSeededWarden } from './seeded-warden.js';
import { dialects } from './store-dialects.js';

interface Target {
  expr: string;
  datasource: { type: string; uid: string };
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  templating: { list: { type: string; name: string; query: unknown; definition?: string }[] };
  panels: Panel[];
}

const dashboard = JSON.parse(
  readFileSync(fileURLToPath(new URL('../deploy/grafana-dashboard.json', import.meta.url)), 'utf8'),
) as Dashboard;
const graphs = dashboard.panels.filter((p) => p.type !== 'row');
const expressions = [
  ...graphs.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
  ...dashboard.templating.list.flatMap((v) => (v.definition ? [v.definition] : [])),
];

/** The metric names a PromQL expression reads: ours and the process metrics, not functions, labels or variables. */
function metricNames(expr: string): string[] {
  const withoutLabels = expr.replace(/\{[^}]*\}/g, '').replace(/\b(by|without)\s*\([^)]*\)/g, '');
  return [...withoutLabels.matchAll(/\b(?:warden|process|nodejs)_[a-z0-9_]+\b/g)].map((m) => m[0]);
}
const used = [...new Set(expressions.flatMap(metricNames))].sort();
const POOL = /^warden_database_pool_/;

describe('deploy/grafana-dashboard.json', () => {
  it('imports with a Prometheus datasource variable, every panel and query on it', () => {
    expect(dashboard.uid).toBe('warden-overview');
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' });
    expect(graphs.length).toBeGreaterThanOrEqual(12);
    for (const panel of graphs) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? [])
        expect(target.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
    }
    // What the dashboard is for: every family Warden documents has a panel.
    for (const name of [
      'warden_http_requests_total',
      'warden_checks_total',
      'warden_check_lateness_seconds_bucket',
      'warden_pushes_total',
      'warden_relay_results_total',
      'warden_live_clients',
      'warden_notification_deliveries_total',
      'warden_ingest_queue_depth',
      'warden_database_pool_waiting',
      'process_cpu_seconds_total',
    ])
      expect(used).toContain(name);
  });

  for (const dialect of dialects) {
    describe.skipIf(!dialect.available)(`against a running Warden on ${dialect.name}`, () => {
      let w: SeededWarden;
      let scrape: Scrape;
      beforeAll(async () => {
        w = await startSeededWarden(dialect, 'organization: { name: Acme }\n', {
          WARDEN_METRICS_TOKEN: 'dashboard-test-token-0123456789',
        });
        const response = await fetch(`${w.url}/metrics`, {
          headers: { authorization: 'Bearer dashboard-test-token-0123456789' },
        });
        scrape = parseScrape(await response.text());
      });
      afterAll(() => w?.close());

      it('names only metrics the scrape has', () => {
        const expected = dialect.name === 'postgres' ? used : used.filter((name) => !POOL.test(name));
        expect(expected.filter((name) => !scrape.names.has(name))).toEqual([]);
        if (dialect.name === 'postgres') expect(scrape.value('warden_database_pool_max')).toBe(10);
        else expect([...scrape.names].filter((name) => POOL.test(name))).toEqual([]);
      });
    });
  }
});
