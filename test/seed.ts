// Small builders that put an organization, monitors and pages in a test store through the real config sync.
import { createInProcessBus } from '../src/bus/bus.js';
import { applyConfig, type SyncReport } from '../src/config/apply.js';
import { parseConfigText } from '../src/config/load.js';
import type { Monitor } from '../src/domain/monitor.js';
import { createLogger } from '../src/logger.js';
import type { ServiceContext } from '../src/services/context.js';
import type { Store } from '../src/store/index.js';

/** The verbs' context over a test store, at a fixed time unless a clock is given. */
export function testContext(store: Store, clock: { now(): number } = { now: () => 0 }): ServiceContext {
  return { store, bus: createInProcessBus(), clock, logger: createLogger(process.env.TEST_LOG ?? 'silent') };
}

export async function seed(
  store: Store,
  yaml: string,
  now = 0,
): Promise<{ report: SyncReport; monitors: Record<string, Monitor> }> {
  const report = await applyConfig(testContext(store, { now: () => now }), parseConfigText(yaml, 'seed.yaml', {}));
  const monitors = Object.fromEntries((await store.monitors.list(report.organization.id)).map((m) => [m.key, m]));
  return { report, monitors };
}
