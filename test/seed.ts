// Small builders that put an organization, monitors and pages in a test store through the real config sync.
import { parseConfigText } from '../src/config/load.js';
import { applyConfig, type SyncReport } from '../src/config/sync.js';
import type { Db } from '../src/store/connect.js';
import { listMonitors, type Monitor } from '../src/store/monitors.js';

export async function seed(db: Db, yaml: string, now = 0): Promise<{ report: SyncReport; monitors: Record<string, Monitor> }> {
  const report = await applyConfig(db, parseConfigText(yaml, 'seed.yaml', {}), now);
  const monitors = Object.fromEntries((await listMonitors(db, report.organization.id)).map((m) => [m.key, m]));
  return { report, monitors };
}
