// Runs the versioned migrations, in order, once each; on start and by `warden migrate`.
import { type Migration, type MigrationResult, Migrator, sql } from 'kysely';
import * as initial from './migrations/0001-initial.js';
import * as hardening from './migrations/0002-hardening.js';
import * as notifications from './migrations/0003-notifications.js';
import * as notificationRules from './migrations/0004-notification-rules.js';
import * as deliveryLanes from './migrations/0005-delivery-lanes.js';
import * as cluster from './migrations/0006-cluster.js';
import * as accounts from './migrations/0007-accounts.js';
import * as pagePresentation from './migrations/0008-page-presentation.js';
import * as checkJournal from './migrations/0009-check-journal.js';
import * as keyMakers from './migrations/0010-key-makers.js';
import * as channelRecipients from './migrations/0011-channel-recipients.js';
import * as accountProofs from './migrations/0012-account-proofs.js';
import * as pausedAt from './migrations/0013-paused-at.js';
import * as recurringMaintenance from './migrations/0014-recurring-maintenance.js';
import * as maintenanceMonitors from './migrations/0015-maintenance-monitors.js';
import * as componentJoin from './migrations/0016-component-join.js';
import * as playerNames from './migrations/0017-player-names.js';
import * as boards from './migrations/0018-boards.js';
import * as subscriberFormats from './migrations/0019-subscriber-formats.js';
import * as playerAlerts from './migrations/0020-player-alerts.js';
import * as gameChanges from './migrations/0021-game-changes.js';
import * as expectedRestart from './migrations/0022-expected-restart.js';
import * as monitorDependencies from './migrations/0023-monitor-dependencies.js';
import * as uptimeReports from './migrations/0024-uptime-reports.js';
import * as alerts from './migrations/0025-alerts.js';
import * as incidentDrafts from './migrations/0026-incident-drafts.js';
import * as maintenanceAnnounce from './migrations/0027-maintenance-announce.js';
import * as vantagePoints from './migrations/0028-vantage-points.js';
import * as locationBuckets from './migrations/0029-location-buckets.js';
import * as pageShowUnreachable from './migrations/0032-page-show-unreachable.js';
import * as journalResultIds from './migrations/0033-journal-result-ids.js';
import * as timePartitions from './migrations/0034-time-partitions.js';
import * as unreferencedChecks from './migrations/0035-unreferenced-checks.js';
import * as resultLookupByMonitor from './migrations/0036-result-lookup-by-monitor.js';
import * as bucketFillFactor from './migrations/0037-bucket-fill-factor.js';
import type { MigrationReport } from './store.js';
import type { Db } from './tables.js';

/** Ordered by name; never rename or edit a migration that has shipped, add a new one. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial': initial,
  '0002-hardening': hardening,
  '0003-notifications': notifications,
  '0004-notification-rules': notificationRules,
  '0005-delivery-lanes': deliveryLanes,
  '0006-cluster': cluster,
  '0007-accounts': accounts,
  '0008-page-presentation': pagePresentation,
  '0009-check-journal': checkJournal,
  '0010-key-makers': keyMakers,
  '0011-channel-recipients': channelRecipients,
  '0012-account-proofs': accountProofs,
  '0013-paused-at': pausedAt,
  '0014-recurring-maintenance': recurringMaintenance,
  '0015-maintenance-monitors': maintenanceMonitors,
  '0016-component-join': componentJoin,
  '0017-player-names': playerNames,
  '0018-boards': boards,
  '0019-subscriber-formats': subscriberFormats,
  '0020-player-alerts': playerAlerts,
  '0021-game-changes': gameChanges,
  '0022-expected-restart': expectedRestart,
  '0023-monitor-dependencies': monitorDependencies,
  '0024-uptime-reports': uptimeReports,
  '0025-alerts': alerts,
  '0026-incident-drafts': incidentDrafts,
  '0027-maintenance-announce': maintenanceAnnounce,
  '0028-vantage-points': vantagePoints,
  '0029-location-buckets': locationBuckets,
  '0032-page-show-unreachable': pageShowUnreachable,
  '0033-journal-result-ids': journalResultIds,
  '0034-time-partitions': timePartitions,
  '0035-unreferenced-checks': unreferencedChecks,
  '0036-result-lookup-by-monitor': resultLookupByMonitor,
  '0037-bucket-fill-factor': bucketFillFactor,
};

/** Every migration's name, in order, and the newest: what a fully migrated database reports as current. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();
export const LATEST_MIGRATION = MIGRATION_NAMES[MIGRATION_NAMES.length - 1] as string;

/**
 * `schema`: where the migration tables live, on dialects with schemas. Kysely looks its tables up by name through the
 * dialect's introspector, which on PostgreSQL reads the current schema only (dialects/postgres/introspector.ts): another
 * schema's tables (another tenant's, a parallel test's) neither pass for ours nor, dropped meanwhile, fail the lookup.
 */
export async function migrateToLatest(db: Db, schema: string | undefined): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'warden_migrations',
    migrationLockTableName: 'warden_migrations_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  // A rolling upgrade (docs/cluster.md): the new version migrated, and a process of the previous one (re)starts. Its
  // schema is all there plus what the new release added (which only adds), so it runs without migrating — where
  // kysely's migrator would refuse a database holding migrations it does not know.
  const executed = await executedMigrations(db, schema);
  const unknown = executed.filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) {
    const missing = MIGRATION_NAMES.filter((name) => !executed.includes(name));
    if (missing.length > 0)
      throw new Error(
        `the database holds migrations this version does not know (${unknown.join(', ')}) and lacks ${missing.join(', ')}: run a newer version`,
      );
    return { applied: [], current: [...executed].sort().at(-1) ?? null };
  }
  const { error, results } = await migrator.migrateToLatest();
  const applied = (results ?? []).filter((r: MigrationResult) => r.status === 'Success').map((r) => r.migrationName);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { applied, current: LATEST_MIGRATION };
}

/**
 * Whether the migrations ran here at least once (a Warden database), as opposed to an empty file or schema. Read from
 * the catalog (the current schema on PostgreSQL): an unreachable server fails here as itself, not as "no database".
 */
export async function isMigrated(db: Db): Promise<boolean> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  return tables.some((table) => table.name === 'warden_migrations');
}

/** The names in the migration table, none before the first migration created it. */
async function executedMigrations(db: Db, schema: string | undefined): Promise<string[]> {
  const table = sql.table(schema ? `${schema}.warden_migrations` : 'warden_migrations');
  try {
    return (await sql<{ name: string }>`select name from ${table}`.execute(db)).rows.map((row) => row.name);
  } catch {
    return [];
  }
}
