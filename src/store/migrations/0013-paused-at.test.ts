// The upgrade to 0013: monitors paused before it count as paused since their latest recorded pause, or their last change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { addMonitor, addOrganization, monitorSpec, NOW } from '../../../test/contracts/store-fixtures.js';
import type { DialectConnection } from '../dialects/connection.js';
import { connectSqlite } from '../dialects/sqlite/connect.js';
import { migrateToLatest } from '../migrate.js';
import { monitorStateRepository } from '../repositories/monitor-states.js';
import { monitorRepository } from '../repositories/monitors.js';
import { organizationRepository } from '../repositories/organizations.js';
import type { Store } from '../store.js';
import * as pausedAt from './0013-paused-at.js';
import * as recurringMaintenance from './0014-recurring-maintenance.js';
import * as playerNames from './0017-player-names.js';

let dir: string | undefined;
let connection: DialectConnection | undefined;
afterEach(async () => {
  await connection?.db.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('dates the pauses of before to their recorded change, else to the monitor’s last change', async () => {
  dir = mkdtempSync(join(tmpdir(), 'warden-0013-'));
  connection = connectSqlite(dir, 'normal');
  const { db, dialect } = connection;
  await migrateToLatest(db, undefined);
  const store = {
    organizations: organizationRepository(db),
    monitors: monitorRepository(db, dialect),
  } as unknown as Store;
  await addOrganization(store);
  await addMonitor(store, 'recorded');
  await addMonitor(store, 'unrecorded', { enabled: false }, NOW + 5);
  await addMonitor(store, 'running');
  await store.monitors.updateSpec('mon_recorded', monitorSpec('recorded', { enabled: false }), 'api', NOW + 20);
  await monitorStateRepository(db, { locksRows: false, dialect }).appendChanges([
    { id: 'stc_1', monitorId: 'mon_recorded', at: NOW + 10, from: 'up', to: 'paused', message: 'paused' },
  ]);
  // Back to before 0013 (and the migrations after it), then up again.
  await playerNames.down(db);
  await recurringMaintenance.down(db);
  await pausedAt.down(db);
  await db
    .deleteFrom('warden_migrations' as never)
    .where('name' as never, '>=', '0013-paused-at' as never)
    .execute();
  expect((await migrateToLatest(db, undefined)).applied).toEqual([
    '0013-paused-at',
    '0014-recurring-maintenance',
    '0017-player-names',
  ]);
  const paused = Object.fromEntries(
    (await db.selectFrom('monitors').select(['key', 'paused_at']).execute()).map((r) => [r.key, r.paused_at]),
  );
  expect(paused).toEqual({ recorded: NOW + 10, unrecorded: NOW + 5, running: null });
});
