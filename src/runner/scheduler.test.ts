// The edge runner (scheduler) on each dialect, in fake time: one run per interval spread over it, the cap on probes at
// once, probes that throw or hang, monitors added, changed or disabled, and its logs (the monitors it owns in cluster
// mode: scheduler-ownership.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { edgeRunnerHarness, fakeProbe, monitorsYaml } from '../../test/edge-runner.js';
import { seed } from '../../test/seed.js';
import { dialects } from '../../test/store-dialects.js';
import { systemClock } from '../domain/clock.js';
import { createLogger } from '../logger.js';
import type { ProbeDefinition } from '../probes/probe.js';
import { tcp } from '../probes/tcp.js';
import type { Ingest } from './ingest.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the edge runner on ${dialect.name}`, () => {
    const e = edgeRunnerHarness(dialect);

    it('runs every monitor once per interval, first runs spread over the interval', async () => {
      await seed(e.opened.store, monitorsYaml(200, 10), Date.now());
      const fake = fakeProbe(0);
      e.scheduler = e.runner({ probeFor: fake.probeFor });
      const started = Date.now();
      await e.scheduler.start();
      await e.advance(10_000);
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
      await e.advance(50_000);
      const counts = new Map<string, number>();
      for (const run of fake.runs) counts.set(run.key, (counts.get(run.key) ?? 0) + 1);
      for (const count of counts.values()) expect(count).toBeGreaterThanOrEqual(5);
      for (const count of counts.values()) expect(count).toBeLessThanOrEqual(6);
      const lateness = e.scheduler.stats().lateness;
      expect(Math.max(...lateness)).toBeLessThan(500);
    });

    it('stores every result through ingest', async () => {
      const { monitors } = await seed(e.opened.store, monitorsYaml(3, 10), Date.now());
      const fake = fakeProbe(0, () => ({ ok: false, error: 'connection refused' }));
      e.scheduler = e.runner({ probeFor: fake.probeFor });
      await e.scheduler.start();
      await e.advance(25_000);
      await e.ingest.flush();
      const checks = await e.opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 100 });
      expect(checks.length).toBeGreaterThanOrEqual(2);
      expect(checks[0]).toMatchObject({ ok: false, error: 'connection refused', source: 'edge' });
    });

    it('caps how many probes run at once', async () => {
      await seed(e.opened.store, monitorsYaml(40, 10), Date.now());
      const fake = fakeProbe(3000);
      e.scheduler = e.runner({ probeFor: fake.probeFor, concurrency: 5 });
      await e.scheduler.start();
      await e.advance(20_000);
      expect(fake.stats().maxActive).toBe(5);
      expect(fake.runs.length).toBeGreaterThan(20);
    });

    it('keeps probing on time while results wait for a slow database', async () => {
      await seed(e.opened.store, monitorsYaml(20, 10), Date.now());
      const fake = fakeProbe(0);
      // Each result takes 3 s to commit: the probe slots cap probes, not results waiting for their commit.
      const slow: Ingest = {
        ...e.ingest,
        record: (input) => new Promise((resolve) => setTimeout(resolve, 3000)).then(() => e.ingest.record(input)),
      };
      e.scheduler = e.runner({ probeFor: fake.probeFor, ingest: slow, concurrency: 2 });
      await e.scheduler.start();
      await e.advance(60_000);
      const counts = new Map<string, number>();
      for (const run of fake.runs) counts.set(run.key, (counts.get(run.key) ?? 0) + 1);
      expect(counts.size).toBe(20);
      for (const count of counts.values()) expect(count).toBeGreaterThanOrEqual(5);
      expect(Math.max(...e.scheduler.stats().lateness)).toBeLessThan(500);
      // Stopping waits for the results being recorded: let their 3 s pass.
      const stopping = e.scheduler.stop();
      await e.advance(4000);
      await stopping;
      e.scheduler = undefined;
    });

    it('never runs one monitor twice at once, even when a run outlasts the interval', async () => {
      await seed(e.opened.store, monitorsYaml(3, 10), Date.now());
      const fake = fakeProbe(4900);
      // A probe taking longer than its interval: runs queue behind each other instead of overlapping.
      e.scheduler = e.runner({ probeFor: fake.probeFor, concurrency: 1 });
      await e.scheduler.start();
      await e.advance(40_000);
      expect(fake.stats().maxPerMonitor).toBe(1);
      expect(fake.runs.length).toBeGreaterThanOrEqual(6);
    });

    it('survives probes that throw or hang', async () => {
      const { monitors } = await seed(e.opened.store, monitorsYaml(1, 10), Date.now());
      let calls = 0;
      const fake = fakeProbe(0, () => {
        calls++;
        if (calls % 2 === 1) throw new Error('boom');
        return { ok: true, latencyMs: 3 };
      });
      e.scheduler = e.runner({ probeFor: fake.probeFor });
      await e.scheduler.start();
      await e.advance(30_000);
      await e.ingest.flush();
      const checks = await e.opened.store.checks.list(monitors.m0!.id, { from: 0, to: Date.now() + 1, limit: 100 });
      expect(checks.length).toBeGreaterThanOrEqual(2);
      expect(checks.some((c) => c.error === 'boom')).toBe(true);
      expect(checks.some((c) => c.ok)).toBe(true);
    });

    it('picks up added, changed and disabled monitors without a restart', async () => {
      const first = await seed(e.opened.store, monitorsYaml(1, 10), Date.now());
      const fake = fakeProbe(0);
      e.scheduler = e.runner({ probeFor: fake.probeFor });
      await e.scheduler.start();
      await e.advance(10_000);
      expect(e.scheduler.stats().monitors).toBe(1);
      await seed(e.opened.store, monitorsYaml(3, 10), Date.now());
      e.bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await e.advance(1_000);
      expect(e.scheduler.stats().monitors).toBe(3);
      await seed(
        e.opened.store,
        monitorsYaml(3, 10).replace('key: m2, name: M2, type: tcp,', 'key: m2, name: M2, type: tcp, enabled: false,'),
        Date.now(),
      );
      e.bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await e.advance(1_000);
      expect(e.scheduler.stats().monitors).toBe(2);
      const before = fake.runs.filter((r) => r.key === 'm2').length;
      await e.advance(20_000);
      expect(fake.runs.filter((r) => r.key === 'm2').length).toBe(before);
    });

    it('checks a monitor added or changed after start at once, not at its spread first run', async () => {
      const first = await seed(e.opened.store, monitorsYaml(1, 60), Date.now());
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
      e.scheduler = e.runner({ probeFor });
      await e.scheduler.start();
      await e.advance(60_000);
      expect(fake.runs.filter((r) => r.key === 'm0')).toHaveLength(1);
      // Added: a 60 s monitor would otherwise wait up to a minute for its first check.
      const added = Date.now();
      await seed(e.opened.store, monitorsYaml(2, 60), Date.now());
      e.bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await e.advance(2_000);
      const m1 = fake.runs.filter((r) => r.key === 'm1');
      expect(m1).toHaveLength(1);
      expect((m1[0]?.at ?? 0) - added).toBeLessThan(2_000);
      // Changed: m0's next run is due up to a minute away; its new port is checked now.
      ports.length = 0;
      const changed = Date.now();
      await seed(e.opened.store, monitorsYaml(2, 60).replace('port: 1000', 'port: 3000'), Date.now());
      e.bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await e.advance(2_000);
      expect(ports).toEqual([3000]);
      expect((fake.runs.at(-1)?.at ?? 0) - changed).toBeLessThan(2_000);
      // Then back to its cadence: one run a minute.
      const before = fake.runs.filter((r) => r.key === 'm0').length;
      await e.advance(60_000);
      expect(fake.runs.filter((r) => r.key === 'm0').length - before).toBe(1);
    });

    it('runs a changed monitor with its new config from its next run', async () => {
      const first = await seed(e.opened.store, monitorsYaml(2, 10), Date.now());
      const ports: number[] = [];
      const probeFor = (): ProbeDefinition =>
        ({
          ...tcp,
          probe: async (config: { port: number }) => {
            ports.push(config.port);
            return { ok: true, latencyMs: 1 };
          },
        }) as unknown as ProbeDefinition;
      e.scheduler = e.runner({ probeFor });
      await e.scheduler.start();
      await e.advance(10_000);
      expect(ports).toContain(1001);
      await seed(e.opened.store, monitorsYaml(2, 10).replace('port: 1001', 'port: 2001'), Date.now());
      e.bus.publish({ type: 'monitors.changed', at: Date.now(), organizationId: first.report.organization.id });
      await e.advance(1_000);
      ports.length = 0;
      await e.advance(10_000);
      expect(ports.sort()).toEqual([1000, 2001]);
    });

    it('measures lateness on the monotonic clock when it runs on the system clock', async () => {
      await seed(e.opened.store, monitorsYaml(20, 10), Date.now());
      const start = Date.now();
      // A monotonic clock running 0.1 % fast: lateness read on it has fractions of a millisecond (timers fire on
      // time here), lateness read on the wall clock has none.
      const monotonic = vi.spyOn(performance, 'now').mockImplementation(() => (Date.now() - start) * 1.001);
      try {
        const fake = fakeProbe(0);
        e.scheduler = e.runner({ probeFor: fake.probeFor, clock: systemClock });
        await e.scheduler.start();
        await e.advance(10_500);
        const lateness = e.scheduler.stats().lateness;
        expect(lateness.length).toBeGreaterThanOrEqual(20);
        expect(lateness.filter((late) => !Number.isInteger(late)).length).toBeGreaterThan(10);
        expect(Math.max(...lateness)).toBeLessThan(15);
      } finally {
        monotonic.mockRestore();
      }
    });

    it('logs the checks it ran and how late they started', async () => {
      await seed(e.opened.store, monitorsYaml(4, 10), Date.now());
      const lines: Record<string, unknown>[] = [];
      const recording = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
      const fake = fakeProbe(0);
      e.scheduler = e.runner({ logger: recording, probeFor: fake.probeFor });
      await e.scheduler.start();
      await e.advance(65_000);
      const minute = lines.find((l) => l.msg === 'edge runner: checks in the last minute');
      expect(minute).toMatchObject({ monitors: 4, waiting: 0 });
      expect(minute?.checks).toBeGreaterThanOrEqual(20);
      expect(minute?.lateP99Ms).toBeGreaterThanOrEqual(0);
      const stopping = e.scheduler.stop();
      await e.ingest.flush();
      await stopping;
      e.scheduler = undefined;
      const stopped = lines.find((l) => l.msg === 'edge runner stopped');
      expect(stopped).toMatchObject({ monitors: 4, checks: fake.runs.length });
      expect(typeof stopped?.lateP99Ms).toBe('number');
    });
  });
}
