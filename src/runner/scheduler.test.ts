import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seed } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { type TrackedStore, trackStore } from '../../test/tracked-store.js';
import { createInProcessBus } from '../bus/bus.js';
import { createLogger } from '../logger.js';
import type { ProbeDefinition, ProbeResult } from '../probes/probe.js';
import { tcp } from '../probes/tcp.js';
import { createIngest, type Ingest } from './ingest.js';
import { createScheduler, type Scheduler, type SchedulerDeps } from './scheduler.js';

function monitorsYaml(count: number, intervalSec = 10, extra = ''): string {
  const lines = Array.from(
    { length: count },
    (_, i) =>
      `  - { key: m${i}, name: M${i}, type: tcp, intervalSec: ${intervalSec}, timeoutMs: 5000, config: { host: 127.0.0.1, port: ${1000 + i} } }`,
  );
  return `organization: { name: T }\nmonitors:\n${lines.join('\n')}\n${extra}`;
}

/** A probe standing in for the real ones: records each run and resolves after `takesMs` of (fake) time. */
function fakeProbe(
  takesMs: number,
  outcome: () => ProbeResult | Promise<ProbeResult> = () => ({ ok: true, latencyMs: 1 }),
) {
  const runs: { key: string; at: number }[] = [];
  let active = 0;
  let maxActive = 0;
  const perMonitor = new Map<string, number>();
  let maxPerMonitor = 0;
  const probeFor = (monitor: { key: string }): ProbeDefinition =>
    ({
      ...tcp,
      probe: async () => {
        runs.push({ key: monitor.key, at: Date.now() });
        active++;
        maxActive = Math.max(maxActive, active);
        const mine = (perMonitor.get(monitor.key) ?? 0) + 1;
        perMonitor.set(monitor.key, mine);
        maxPerMonitor = Math.max(maxPerMonitor, mine);
        try {
          if (takesMs > 0) await new Promise((resolve) => setTimeout(resolve, takesMs));
          return await outcome();
        } finally {
          active--;
          perMonitor.set(monitor.key, (perMonitor.get(monitor.key) ?? 1) - 1);
        }
      },
    }) as unknown as ProbeDefinition;
  return { runs, probeFor, stats: () => ({ maxActive, maxPerMonitor }) };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the edge runner on ${dialect.name}`, () => {
    let opened: OpenedStore;
    let tracked: TrackedStore;
    let ingest: Ingest;
    let scheduler: Scheduler | undefined;
    const bus = createInProcessBus();
    const logger = createLogger('silent');
    const clock = { now: () => Date.now() };
    const runner = (deps: Partial<SchedulerDeps>) =>
      createScheduler({ store: tracked.store, ingest, bus, clock, logger, ...deps });

    /** Advances fake time in small steps; between them, whatever the database was asked meanwhile is answered first. */
    async function advance(ms: number, step = 250): Promise<void> {
      for (let t = 0; t < ms; t += step) {
        await vi.advanceTimersByTimeAsync(step);
        await tracked.idle();
      }
    }

    beforeEach(async () => {
      opened = await dialect.open();
      tracked = trackStore(opened.store);
      vi.useFakeTimers({
        toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
        now: Date.UTC(2026, 10, 20, 12),
      });
      ingest = createIngest({ store: tracked.store, bus, clock, logger });
    });
    afterEach(async () => {
      // Stopping waits for the runs being recorded, whose edge results linger for company: commit them now.
      const stopping = scheduler?.stop();
      await ingest.flush();
      await stopping;
      scheduler = undefined;
      await ingest.close();
      vi.useRealTimers();
      await opened.cleanup();
    });

    it('runs every monitor once per interval, first runs spread over the interval', async () => {
      await seed(opened.store, monitorsYaml(200, 10), Date.now());
      const fake = fakeProbe(0);
      scheduler = runner({ probeFor: fake.probeFor });
      const started = Date.now();
      await scheduler.start();
      await advance(10_000);
      expect(new Set(fake.runs.map((r) => r.key)).size).toBe(200);
      expect(fake.runs).toHaveLength(200);
      // Spread: no second of the interval holds more than a quarter of the first runs.
      const perSecond = new Map<number, number>();
      for (const run of fake.runs)
        perSecond.set(
          Math.floor((run.at - started) / 1000),
          (perSecond.get(Math.floor((run.at - started) / 1000)) ?? 0) + 1,
        );
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(50);
      expect(perSecond.size).toBeGreaterThanOrEqual(8);
      await advance(50_000);
      const counts = new Map<string, number>();
      for (const run of fake.runs) counts.set(run.key, (counts.get(run.key) ?? 0) + 1);
      for (const count of counts.values()) expect(count).toBeGreaterThanOrEqual(5);
      for (const count of counts.values()) expect(count).toBeLessThanOrEqual(6);
      const lateness = scheduler.stats().lateness;
      expect(Math.max(...lateness)).toBeLessThan(500);
    });

    it('stores every result through ingest', async () => {
      const { monitors } = await seed(opened.store, monitorsYaml(3, 10), Date.now());
      const fake = fakeProbe(0, () => ({ ok: false, error: 'connection refused' }));
      scheduler = runner({ probeFor: fake.probeFor });
      await scheduler.start();
      await advance(25_000);
      await ingest.flush();
      const checks = await opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 100 });
      expect(checks.length).toBeGreaterThanOrEqual(2);
      expect(checks[0]).toMatchObject({ ok: false, error: 'connection refused', source: 'edge' });
    });

    it('caps how many probes run at once', async () => {
      await seed(opened.store, monitorsYaml(40, 10), Date.now());
      const fake = fakeProbe(3000);
      scheduler = runner({ probeFor: fake.probeFor, concurrency: 5 });
      await scheduler.start();
      await advance(20_000);
      expect(fake.stats().maxActive).toBe(5);
      expect(fake.runs.length).toBeGreaterThan(20);
    });

    it('never runs one monitor twice at once, even when a run outlasts the interval', async () => {
      await seed(opened.store, monitorsYaml(3, 10), Date.now());
      const fake = fakeProbe(4900);
      // A probe taking longer than its interval: runs queue behind each other instead of overlapping.
      scheduler = runner({ probeFor: fake.probeFor, concurrency: 1 });
      await scheduler.start();
      await advance(40_000);
      expect(fake.stats().maxPerMonitor).toBe(1);
      expect(fake.runs.length).toBeGreaterThanOrEqual(6);
    });

    it('survives probes that throw or hang', async () => {
      const { monitors } = await seed(opened.store, monitorsYaml(1, 10), Date.now());
      let calls = 0;
      const fake = fakeProbe(0, () => {
        calls++;
        if (calls % 2 === 1) throw new Error('boom');
        return { ok: true, latencyMs: 3 };
      });
      scheduler = runner({ probeFor: fake.probeFor });
      await scheduler.start();
      await advance(30_000);
      await ingest.flush();
      const checks = await opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 100 });
      expect(checks.length).toBeGreaterThanOrEqual(2);
      expect(checks.some((c) => c.error === 'boom')).toBe(true);
      expect(checks.some((c) => c.ok)).toBe(true);
    });

    it('picks up added, changed and disabled monitors without a restart', async () => {
      const first = await seed(opened.store, monitorsYaml(1, 10), Date.now());
      const fake = fakeProbe(0);
      scheduler = runner({ probeFor: fake.probeFor });
      await scheduler.start();
      await advance(10_000);
      expect(scheduler.stats().monitors).toBe(1);
      await seed(opened.store, monitorsYaml(3, 10), Date.now());
      bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await advance(1_000);
      expect(scheduler.stats().monitors).toBe(3);
      await seed(
        opened.store,
        monitorsYaml(3, 10).replace('key: m2, name: M2, type: tcp,', 'key: m2, name: M2, type: tcp, enabled: false,'),
        Date.now(),
      );
      bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await advance(1_000);
      expect(scheduler.stats().monitors).toBe(2);
      const before = fake.runs.filter((r) => r.key === 'm2').length;
      await advance(20_000);
      expect(fake.runs.filter((r) => r.key === 'm2').length).toBe(before);
    });

    it('checks a monitor added or changed after start at once, not at its spread first run', async () => {
      const first = await seed(opened.store, monitorsYaml(1, 60), Date.now());
      const runs: { key: string; at: number }[] = [];
      const ports: number[] = [];
      const probeFor = (monitor: { key: string }): ProbeDefinition =>
        ({
          ...tcp,
          probe: async (config: { port: number }) => {
            runs.push({ key: monitor.key, at: Date.now() });
            ports.push(config.port);
            return { ok: true, latencyMs: 1 };
          },
        }) as unknown as ProbeDefinition;
      const fake = { runs };
      scheduler = runner({ probeFor });
      await scheduler.start();
      await advance(60_000);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      // Added: a 60 s monitor would otherwise wait up to a minute for its first check.
      const added = Date.now();
      await seed(opened.store, monitorsYaml(2, 60), Date.now());
      bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await advance(2_000);
      const m1 = fake.runs.filter((r) => r.key === 'm1');
      expect(m1).toHaveLength(1);
      expect((m1[0]?.at ?? 0) - added).toBeLessThan(2_000);
      // Changed: m0's next run is due up to a minute away; its new port is checked now.
      ports.length = 0;
      const changed = Date.now();
      await seed(opened.store, monitorsYaml(2, 60).replace('port: 1000', 'port: 3000'), Date.now());
      bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await advance(2_000);
      expect(ports).toEqual([3000]);
      expect((fake.runs.at(-1)?.at ?? 0) - changed).toBeLessThan(2_000);
      // Then back to its cadence: one run a minute.
      const before = fake.runs.filter((r) => r.key === 'm0').length;
      await advance(60_000);
      expect(fake.runs.filter((r) => r.key === 'm0').length - before).toBe(1);
    });

    it('runs a changed monitor with its new config from its next run', async () => {
      const first = await seed(opened.store, monitorsYaml(2, 10), Date.now());
      const ports: number[] = [];
      const probeFor = (): ProbeDefinition =>
        ({
          ...tcp,
          probe: async (config: { port: number }) => {
            ports.push(config.port);
            return { ok: true, latencyMs: 1 };
          },
        }) as unknown as ProbeDefinition;
      scheduler = runner({ probeFor });
      await scheduler.start();
      await advance(10_000);
      expect(ports).toContain(1001);
      await seed(opened.store, monitorsYaml(2, 10).replace('port: 1001', 'port: 2001'), Date.now());
      bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await advance(1_000);
      ports.length = 0;
      await advance(10_000);
      expect(ports.sort()).toEqual([1000, 2001]);
    });

    it('runs only the monitors it owns (cluster mode)', async () => {
      await seed(opened.store, monitorsYaml(6, 10), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set(['m0', 'm1']);
      const ids = new Map(
        (await opened.store.monitors.list((await opened.store.organizations.list())[0]!.id)).map((m) => [m.id, m.key]),
      );
      scheduler = runner({ probeFor: fake.probeFor, owns: (id) => owned.has(ids.get(id) ?? '') });
      await scheduler.start();
      await advance(25_000);
      expect(new Set(fake.runs.map((r) => r.key))).toEqual(new Set(['m0', 'm1']));
      expect(scheduler.stats().monitors).toBe(2);
    });

    it('resumes a monitor newly owned one interval after its stored last check, or soon when that passed', async () => {
      const { monitors } = await seed(opened.store, monitorsYaml(3, 10), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set<string>();
      scheduler = runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await scheduler.start();
      // Another instance checked m0 4 s ago and m1 35 s ago (then died); m2 was never checked.
      const now = Date.now();
      const recorded = ingest.recordMany([
        { monitorId: monitors.m0!.id, ok: true, checkedAt: now - 4_000, source: 'edge' },
        { monitorId: monitors.m1!.id, ok: true, checkedAt: now - 35_000, source: 'edge' },
      ]);
      await ingest.flush();
      await recorded;
      for (const m of Object.values(monitors)) owned.add(m.id);
      await scheduler.reload();
      await advance(20_000, 100);
      const first = (key: string) => fake.runs.find((r) => r.key === key)?.at ?? Number.NaN;
      expect(first('m0') - now).toBeGreaterThanOrEqual(6_000);
      expect(first('m0') - now).toBeLessThanOrEqual(6_100);
      expect(first('m1') - now).toBeLessThanOrEqual(2_100);
      expect(first('m2') - now).toBeLessThanOrEqual(10_000);
      // Then at its own cadence: once per interval, no second run right after the handover.
      const m0Runs = fake.runs.filter((r) => r.key === 'm0').map((r) => r.at);
      expect(m0Runs).toHaveLength(2);
      expect((m0Runs[1] ?? 0) - (m0Runs[0] ?? 0)).toBe(10_000);
    });

    it('spreads the never-checked monitors of shards it takes over, rather than checking them all at once', async () => {
      await seed(opened.store, monitorsYaml(60, 60), Date.now());
      const fake = fakeProbe(0);
      const owned = new Set<string>();
      scheduler = runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await scheduler.start();
      await advance(10_000);
      // The shards arrive: their monitors are new to this process, but none of them changed.
      for (const m of await opened.store.monitors.list((await opened.store.organizations.list())[0]!.id))
        owned.add(m.id);
      await scheduler.reload();
      await advance(2_000);
      expect(fake.runs.length).toBeLessThan(15);
      await advance(60_000);
      expect(new Set(fake.runs.map((r) => r.key)).size).toBe(60);
    });

    it('drops a monitor no longer owned before its next run, once its check in flight is recorded', async () => {
      const { monitors } = await seed(opened.store, monitorsYaml(2, 10), Date.now());
      let release = () => {};
      const probing = new Promise<void>((resolve) => {
        release = resolve;
      });
      const fake = fakeProbe(0, async () => {
        await probing;
        return { ok: true, latencyMs: 1 };
      });
      const owned = new Set([monitors.m0!.id, monitors.m1!.id]);
      scheduler = runner({ probeFor: fake.probeFor, owns: (id) => owned.has(id) });
      await scheduler.start();
      // Until m0's first check starts: it then hangs in its probe (for less than its 5 s timeout).
      for (let waited = 0; waited < 10_000 && !fake.runs.some((r) => r.key === 'm0'); waited += 100)
        await advance(100, 100);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      owned.delete(monitors.m0!.id);
      let dropped = false;
      const reloading = scheduler.reload().then(() => {
        dropped = true;
      });
      await advance(1_000);
      // m0's check is still running: the shard is not handed back before its result is in.
      expect(dropped).toBe(false);
      release();
      await advance(1_000);
      await reloading;
      expect(dropped).toBe(true);
      const checks = await opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 10 });
      expect(checks).toHaveLength(1);
      await advance(30_000);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      expect(fake.runs.filter((r) => r.key === 'm1').length).toBeGreaterThanOrEqual(3);
      expect(scheduler.stats().monitors).toBe(1);
    });

    it('logs the checks it ran and how late they started', async () => {
      await seed(opened.store, monitorsYaml(4, 10), Date.now());
      const lines: Record<string, unknown>[] = [];
      const recording = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
      const fake = fakeProbe(0);
      scheduler = runner({ logger: recording, probeFor: fake.probeFor });
      await scheduler.start();
      await advance(65_000);
      const minute = lines.find((l) => l.msg === 'edge runner: checks in the last minute');
      expect(minute).toMatchObject({ monitors: 4, waiting: 0 });
      expect(minute?.checks).toBeGreaterThanOrEqual(20);
      expect(minute?.lateP99Ms).toBeGreaterThanOrEqual(0);
      const stopping = scheduler.stop();
      await ingest.flush();
      await stopping;
      scheduler = undefined;
      const stopped = lines.find((l) => l.msg === 'edge runner stopped');
      expect(stopped).toMatchObject({ monitors: 4, checks: fake.runs.length });
      expect(typeof stopped?.lateP99Ms).toBe('number');
    });
  });
}
