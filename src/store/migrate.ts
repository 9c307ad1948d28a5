// Runs the versioned migrations, in order, once each; on start and by `warden migrate`.
import { type Migration, type MigrationResult, Migrator } from 'kysely';
import * as initial from './migrations/0001-initial.js';
import * as hardening from './migrations/0002-hardening.js';
import * as notifications from './migrations/0003-notifications.js';
import * as notificationRules from './migrations/0004-notification-rules.js';
import * as deliveryLanes from './migrations/0005-delivery-lanes.js';
import * as cluster from './migrations/0006-cluster.js';
import type { MigrationReport } from './store.js';
import type { Db } from './tables.js';

/** Ordered by name; never rename or edit a migration that has shipped, add a new one. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-hardening': hardening,
  '0003-notifications': notifications,
  '0004-notification-rules': notificationRules,
  '0005-delivery-lanes': deliveryLanes,
  '0006-cluster': cluster,
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
  const { error, results } = await migrator.migrateToLatest();
  const applied = (results ?? []).filter((r: MigrationResult) => r.status === 'Success').map((r) => r.migrationName);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const names = Object.keys(MIGRATIONS).sort();
  return { applied, current: names.at(-1) ?? null };
}
