// What the running parts count: an edge check (by type and outcome, timed, its lateness), the ingest commit, relay
// results by outcome, notification deliveries by channel type and outcome. HTTP, pushes and serving: http/metrics.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { addOrganization, NOW, ORG } from '../../test/contracts/store-fixtures.js';
import { parseScrape } from '../../test/prometheus-text.js';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { type TrackedStore, trackStore } from '../../test/tracked-store.js';
import { createInProcessBus } from '../bus/bus.js';
import { composeWarden } from '../compose.js';
import { createLogger } from '../logger.js';
import { defineChannel, type SendOutcome } from '../notify/channels/channel.js';
import { createDispatcher } from '../notify/dispatch/dispatcher.js';
import type { ProbeDefinition, ProbeResult } from '../probes/probe.js';
import { tcp } from '../probes/tcp.js';
import { createIngest } from '../runner/ingest.js';
import { createScheduler } from '../runner/scheduler.js';
import { createMetrics } from './metrics.js';
import type { WardenMetrics } from './recorder.js';

const logger = createLogger('silent');
// What is counted does not depend on the store.
const sqlite = dialects[0]!;
const scrape = async (metrics: WardenMetrics) => parseScrape(await metrics.scrape());

describe('metrics of the running parts', () => {
  let opened: OpenedStore;
  let metrics: WardenMetrics;
  beforeEach(async () => {
    opened = await sqlite.open();
    metrics = createMetrics();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await opened.cleanup();
  });

  it('counts each edge check by type and outcome, with its duration and lateness, and the commits that stored them', async () => {
    const yaml = `organization: { name: T }
monitors:
  - { key: up, name: Up, type: tcp, intervalSec: 10, config: { host: 127.0.0.1, port: 1001 } }
  - { key: slow, name: Slow, type: tcp, intervalSec: 10, config: { host: 127.0.0.1, port: 1002 } }
  - { key: down, name: Down, type: tcp, intervalSec: 10, config: { host: 127.0.0.1, port: 1003 } }
`;
    await seed(opened.store, yaml, Date.now());
    const results: Record<string, ProbeResult> = {
      up: { ok: true, latencyMs: 3 },
      slow: { ok: true, degraded: true },
      down: { ok: false, error: 'connection refused' },
    };
    const probeFor = (monitor: { key: string }) =>
      ({ ...tcp, probe: async () => results[monitor.key] as ProbeResult }) as unknown as ProbeDefinition;
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: Date.UTC(2026, 10, 20, 12),
    });
    const tracked: TrackedStore = trackStore(opened.store);
    const deps = { store: tracked.store, bus: createInProcessBus(), clock: { now: () => Date.now() }, logger, metrics };
    const ingest = createIngest(deps);
    const scheduler = createScheduler({ ...deps, ingest, probeFor });
    await scheduler.start();
    // One interval: each monitor checked once (first runs spread over it), each result committed.
    for (let t = 0; t < 10_000; t += 250) {
      await vi.advanceTimersByTimeAsync(250);
      await tracked.idle();
    }
    const stopping = scheduler.stop();
    await ingest.flush();
    await stopping;
    await ingest.close();

    const m = await scrape(metrics);
    expect(m.value('warden_checks_total', { type: 'tcp', outcome: 'up' })).toBe(1);
    expect(m.value('warden_checks_total', { type: 'tcp', outcome: 'degraded' })).toBe(1);
    expect(m.value('warden_checks_total', { type: 'tcp', outcome: 'down' })).toBe(1);
    expect(m.value('warden_check_duration_seconds_count', { type: 'tcp' })).toBe(3);
    expect(m.value('warden_check_lateness_seconds_count')).toBe(3);
    expect(m.value('warden_check_lateness_seconds_bucket', { le: '+Inf' })).toBe(3);
    expect(m.value('warden_ingest_batch_size_sum')).toBe(3);
    expect(m.value('warden_ingest_commit_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(m.value('warden_ingest_queue_depth')).toBe(0);
  });

  it('counts the results relays send: accepted, duplicate, and refused by reason', async () => {
    const token = 'wdr_metricsRelayToken012345678';
    const yaml = `organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab, token: ${token} }]
monitors:
  - { key: mc, name: Lobby, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.5, port: 25565 } }
  - { key: edge, name: Edge, type: tcp, config: { host: 127.0.0.1, port: 1 } }
`;
    const now = Date.UTC(2026, 10, 20, 12);
    const { monitors } = await seed(opened.store, yaml, now);
    const parts = composeWarden({
      store: opened.store,
      clock: { now: () => now },
      logger,
      baseUrl: () => 'http://warden.test',
      metrics,
    });
    const post = (results: unknown[]) =>
      parts.app.request('http://warden.test/api/relay/results', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'warden.test' },
        body: JSON.stringify({ results }),
      });
    const mc = monitors.mc!.id;
    const first = await post([
      { id: 'r1', monitorId: mc, ok: true, checkedAt: now - 1000 },
      { id: 'r2', monitorId: mc, ok: 'yes' },
      { id: 'r3', monitorId: monitors.edge!.id, ok: true },
      { id: 'r4', monitorId: mc, ok: true, checkedAt: now + 3_600_000 },
    ]);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ accepted: 1, duplicates: 0 });
    expect((await post([{ id: 'r1', monitorId: mc, ok: true, checkedAt: now - 1000 }])).status).toBe(200);
    await parts.ingest.close();

    const m = await scrape(metrics);
    expect(m.value('warden_relay_results_total', { outcome: 'accepted' })).toBe(1);
    expect(m.value('warden_relay_results_total', { outcome: 'duplicate' })).toBe(1);
    expect(m.value('warden_relay_results_total', { outcome: 'invalid' })).toBe(1);
    expect(m.value('warden_relay_results_total', { outcome: 'not_assigned' })).toBe(1);
    expect(m.value('warden_relay_results_total', { outcome: 'out_of_window' })).toBe(1);
    expect(m.value('warden_http_requests_total', { route: '/api/relay/results', status: '2xx' })).toBe(2);
  });

  it('counts notification delivery attempts by channel type and outcome', async () => {
    await addOrganization(opened.store);
    const answers: SendOutcome[] = [
      { kind: 'sent', status: 204 },
      { kind: 'dead', status: 410, error: 'gone' },
    ];
    const channel = defineChannel({
      type: 'test-hook',
      label: 'Test hook',
      config: z.object({}),
      secrets: [],
      targets: [],
      send: async () => answers.shift() as SendOutcome,
    });
    await opened.store.channels.insert(
      {
        id: 'nch_a',
        organizationId: ORG.id,
        key: 'a',
        name: 'a',
        type: 'test-hook',
        config: {},
        rules: {},
        enabled: true,
        managedBy: 'api',
      },
      NOW,
    );
    const event = {
      kind: 'monitor.down',
      at: NOW,
      severity: 'critical',
      title: 'down',
      reason: null,
      organization: ORG,
      pages: [],
    };
    await opened.store.deliveries.enqueue(
      ['evt_1', 'evt_2'].map((id, i) => ({
        id: `dlv_${i}`,
        eventId: id,
        channelId: 'nch_a',
        organizationId: ORG.id,
        monitorId: `mon_${i}`,
        kind: 'monitor.down',
        event: JSON.stringify({ id, ...event }),
        nextAttemptAt: NOW,
      })),
      NOW,
    );
    const dispatcher = createDispatcher({
      store: opened.store,
      clock: { now: () => NOW },
      logger,
      channels: { 'test-hook': channel },
      metrics,
      options: { stopGraceMs: 100 },
    });
    await dispatcher.tick();
    await dispatcher.tick();
    await dispatcher.stop();

    const m = await scrape(metrics);
    expect(m.value('warden_notification_deliveries_total', { channel: 'test-hook', outcome: 'sent' })).toBe(1);
    expect(m.value('warden_notification_deliveries_total', { channel: 'test-hook', outcome: 'dead' })).toBe(1);
  });
});
