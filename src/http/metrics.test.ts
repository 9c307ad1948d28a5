import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScrape } from '../../test/prometheus-text.js';
import { type SeededWarden, startSeededWarden } from '../../test/seeded-warden.js';
import { dialects } from '../../test/store-dialects.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const PUSH_TOKEN = 'wdp_metricsHeartbeatToken0123';
const CONFIG = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: heartbeat, pushToken: ${PUSH_TOKEN} }
pages:
  - slug: status
    title: Status
    components:
      - { name: Lobby, monitor: lobby }
`;
// Serving and counting do not depend on the store: one dialect (the dashboard test scrapes both).
const sqlite = dialects[0]!;

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('GET /metrics on the main port (WARDEN_METRICS_TOKEN)', () => {
  let w: SeededWarden;
  beforeAll(async () => {
    w = await startSeededWarden(sqlite, CONFIG, { WARDEN_METRICS_TOKEN: TOKEN });
  });
  afterAll(() => w.close());

  const scrape = async () => {
    const response = await fetch(`${w.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return parseScrape(await response.text());
  };

  it('answers 401 problem+json without the token or with a wrong one, and the Prometheus text to its bearer', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer metrics-token-0123456789abcdeX' },
      { authorization: 'Bearer short' },
      { authorization: `Basic ${TOKEN}` },
    ]) {
      const refused = await fetch(`${w.url}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const body = (await refused.json()) as { status: number; instance: string };
      expect(body).toMatchObject({ status: 401, instance: '/metrics' });
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    }
    const answered = await fetch(`${w.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answered.headers.get('cache-control')).toBe('no-store');
    const metrics = parseScrape(await answered.text());
    expect(metrics.families.get('warden_checks_total')).toBe('counter');
    expect(metrics.families.get('warden_http_request_duration_seconds')).toBe('histogram');
    expect(metrics.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.value('warden_ingest_queue_depth')).toBe(0);
    expect(metrics.value('warden_live_clients')).toBe(0);
    // SQLite has no pool: no made-up figures for one.
    expect(metrics.families.has('warden_database_pool_connections')).toBe(false);
  });

  it('counts cached reads the fast path served, and the app’s answers by route template, never by URL', async () => {
    const before = await scrape();
    const fast = (m: typeof before) =>
      m.value('warden_http_requests_total', { route: 'fast:page-json', status: '2xx' }) ?? 0;
    // The pre-router answers all three: the first builds the page and renders the form, the next come from memory.
    for (let i = 0; i < 3; i++) expect((await fetch(`${w.url}/api/v1/status/status`)).status).toBe(200);
    expect((await fetch(`${w.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${w.url}/no/such/path-4711`)).status).toBe(404);
    const after = await scrape();
    expect(fast(after) - fast(before)).toBe(3);
    expect(
      after.value('warden_http_request_duration_seconds_count', { route: 'fast:page-json' }),
    ).toBeGreaterThanOrEqual(2);
    // The JSON form just served is held in memory, and counted.
    expect(after.value('warden_page_cache_bytes')).toBeGreaterThan(0);
    expect(after.value('warden_http_requests_total', { route: 'fast:health', status: '2xx' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(after.value('warden_http_requests_total', { route: '/metrics', status: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(after.value('warden_http_requests_total', { route: '/metrics', status: '4xx' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(after.samples.flatMap((s) => (s.labels.route === undefined ? [] : [s.labels.route])));
    for (const route of routes) expect(route).not.toMatch(/path-4711|\/status\/status/);
  });

  it('counts heartbeats accepted and refused, by reason', async () => {
    const before = await scrape();
    expect((await fetch(`${w.url}/api/push/${PUSH_TOKEN}?status=up`)).status).toBe(200);
    expect((await fetch(`${w.url}/api/push/${PUSH_TOKEN}?status=sideways`)).status).toBe(400);
    expect((await fetch(`${w.url}/api/push/wdp_noSuchHeartbeatToken000000`)).status).toBe(404);
    const after = await scrape();
    const moved = (outcome: string) =>
      (after.value('warden_pushes_total', { outcome }) ?? 0) - (before.value('warden_pushes_total', { outcome }) ?? 0);
    expect(moved('accepted')).toBe(1);
    expect(moved('invalid')).toBe(1);
    expect(moved('unknown_token')).toBe(1);
    expect(after.value('warden_http_requests_total', { route: 'fast:push', status: '2xx' })).toBeGreaterThanOrEqual(1);
    // Each heartbeat was committed by the ingest path.
    expect(after.value('warden_ingest_commit_duration_seconds_count')).toBeGreaterThan(
      before.value('warden_ingest_commit_duration_seconds_count') ?? 0,
    );
  });
});

describe('GET /metrics on a port of its own (WARDEN_METRICS_PORT)', () => {
  let w: SeededWarden;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    w = await startSeededWarden(sqlite, CONFIG, { WARDEN_METRICS_PORT: String(port) });
  });
  afterAll(() => w.close());

  it('answers without a token there, and nothing else; the main port does not serve it without a token set', async () => {
    const answered = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(answered.status).toBe(200);
    expect(parseScrape(await answered.text()).families.get('warden_pushes_total')).toBe('counter');
    const other = await fetch(`http://127.0.0.1:${port}/api/v1/status/status`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toBe('application/problem+json');
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(405);
    const main = await fetch(`${w.url}/metrics`);
    expect(main.status).toBe(404);
    expect(main.headers.get('content-type')).toBe('application/problem+json');
  });

  it('closes its port with the server', async () => {
    const own = await freePort();
    const other = await w.another({ WARDEN_METRICS_PORT: String(own) });
    expect((await fetch(`http://127.0.0.1:${own}/metrics`)).status).toBe(200);
    await other.close();
    await expect(fetch(`http://127.0.0.1:${own}/metrics`)).rejects.toThrow();
  });
});

describe('GET /metrics with neither setting', () => {
  let w: SeededWarden;
  beforeAll(async () => {
    w = await startSeededWarden(sqlite, CONFIG);
  });
  afterAll(() => w.close());

  it('is a 404 problem, whatever the Authorization', async () => {
    const response = await fetch(`${w.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
