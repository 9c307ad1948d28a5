// The edge runner's tests' harness: a store per test on the given dialect, tracked so fake time waits for its answers,
// ingest, an in-process bus and fake timers; a warden.yaml of N tcp monitors; and a probe that records its runs.
import { afterEach, beforeEach, vi } from 'vitest';
import { createInProcessBus } from '../src/bus/bus.js';
import { createLogger } from '../src/logger.js';
import type { ProbeDefinition, ProbeResult } from '../src/probes/probe.js';
import { tcp } from '../src/probes/tcp.js';
import { createIngest, type Ingest } from '../src/runner/ingest.js';
import { createScheduler, type Scheduler, type SchedulerDeps } from '../src/runner/scheduler.js';
import type { DialectCase, OpenedStore } from './store-dialects.js';
import { type TrackedStore, trackStore } from './tracked-store.js';

export function monitorsYaml(count: number, intervalSec = 10, extra = ''): string {
  const lines = Array.from(
    { length: count },
    (_, i) =>
      `  - { key: m${i}, name: M${i}, type: tcp, intervalSec: ${intervalSec}, timeoutMs: 5000, config: { host: 127.0.0.1, port: ${1000 + i} } }`,
  );
  return `organization: { name: T }\nmonitors:\n${lines.join('\n')}\n${extra}`;
}

/** A probe standing in for the real ones: records each run and resolves after `takesMs` of (fake) time. */
export function fakeProbe(
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

export interface EdgeRunnerHarness {
  opened: OpenedStore;
  tracked: TrackedStore;
  ingest: Ingest;
  /** The runner a test started, stopped after it unless the test did. */
  scheduler: Scheduler | undefined;
  bus: ReturnType<typeof createInProcessBus>;
  runner(deps: Partial<SchedulerDeps>): Scheduler;
  /** Advances fake time in small steps; between them, whatever the database was asked meanwhile is answered first. */
  advance(ms: number, step?: number): Promise<void>;
}

export function edgeRunnerHarness(dialect: DialectCase): EdgeRunnerHarness {
  const logger = createLogger('silent');
  const clock = { now: () => Date.now() };
  const e: EdgeRunnerHarness = {
    opened: undefined as unknown as OpenedStore,
    tracked: undefined as unknown as TrackedStore,
    ingest: undefined as unknown as Ingest,
    scheduler: undefined,
    bus: createInProcessBus(),
    runner: (deps) => createScheduler({ store: e.tracked.store, ingest: e.ingest, bus: e.bus, clock, logger, ...deps }),
    async advance(ms, step = 250) {
      for (let t = 0; t < ms; t += step) {
        await vi.advanceTimersByTimeAsync(step);
        await e.tracked.idle();
      }
    },
  };

  beforeEach(async () => {
    e.opened = await dialect.open();
    e.tracked = trackStore(e.opened.store);
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: Date.UTC(2026, 10, 20, 12),
    });
    e.ingest = createIngest({ store: e.tracked.store, bus: e.bus, clock, logger });
  });
  afterEach(async () => {
    // Stopping waits for the runs being recorded, whose edge results linger for company: commit them now.
    const stopping = e.scheduler?.stop();
    await e.ingest.flush();
    await stopping;
    e.scheduler = undefined;
    await e.ingest.close();
    vi.useRealTimers();
    await e.opened.cleanup();
  });
  return e;
}
