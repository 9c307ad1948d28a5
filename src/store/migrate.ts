// Runs the versioned migrations, in order, once each; on start and by `warden migrate`.
import { type Migration, type MigrationResult, Migrator, PostgresAdapter, sql } from 'kysely';
import type { Db } from './connect.js';
import * as initial from './migrations/0001-initial.js';

/** Ordered by name; never rename or edit a migration that has shipped, add a new one. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
};

export interface MigrationReport {
  applied: string[];
  current: string | null;
}

export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'warden_migrations',
    migrationLockTableName: 'warden_migrations_lock',
    // Kysely looks for its tables in every schema unless told which: on PostgreSQL, another schema's tables
    // (another tenant, a parallel test) would pass for ours. Name the schema in use.
    ...(await postgresSchema(db)),
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

async function postgresSchema(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  return schema ? { migrationTableSchema: schema } : {};
}
