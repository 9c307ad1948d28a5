// `warden backup FILE` and `warden restore FILE`: a verified online copy of the SQLite database while the server runs,
// and installing one into an empty data dir. PostgreSQL's backups are pg_dump's (docs/operations.md).
import { Command } from 'commander';
import { readSettings, type Settings } from '../../config/settings.js';
import { counted } from '../../domain/counted.js';
import { backupSqliteDatabase, restoreSqliteDatabase } from '../session.js';

export function backupCommand(): Command {
  return new Command('backup')
    .argument('<file>', 'where to write the copy')
    .option('--force', 'replace FILE if it exists')
    .description(
      "Copy the SQLite database while the server runs (SQLite's online backup API) and verify the copy. With PostgreSQL, use pg_dump.",
    )
    .action(async (file: string, options: { force?: boolean }) => {
      const settings = readSettings();
      if (usesPostgres(settings)) throw new Error(postgresBackup(settings));
      const copy = await backupSqliteDatabase(settings.dataDir, file, { force: options.force === true });
      process.stdout.write(
        `backed up ${settings.dataDir} to ${copy.file}: ${formatBytes(copy.bytes)}, integrity ok, ${holds(copy)} (schema ${copy.schema ?? 'none'})\n`,
      );
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .argument('<file>', 'a copy made by `warden backup`')
    .description(
      'Install a backup as the database of an empty data dir (WARDEN_DATA_DIR) and migrate it. With PostgreSQL, use pg_restore.',
    )
    .action(async (file: string) => {
      const settings = readSettings();
      if (usesPostgres(settings)) throw new Error(postgresRestore(settings));
      const restored = await restoreSqliteDatabase(file, settings.dataDir);
      const migrated = restored.migrated.length > 0 ? `migrated ${restored.migrated.join(', ')}` : 'schema up to date';
      process.stdout.write(
        `restored ${file} to ${restored.file}: ${formatBytes(restored.bytes)}, integrity ok, ${holds(restored)}, ${migrated}\n`,
      );
    });
}

/** The same test as the store's: a DATABASE_URL that names PostgreSQL. */
function usesPostgres(settings: Settings): boolean {
  return settings.databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(settings.databaseUrl);
}

function schemaFlag(settings: Settings): string {
  return settings.databaseSchema ? ` --schema=${settings.databaseSchema}` : '';
}

function postgresBackup(settings: Settings): string {
  return [
    "this Warden uses PostgreSQL (DATABASE_URL): its backups are pg_dump's job, which copies a consistent snapshot while Warden runs:",
    `  pg_dump --format=custom${schemaFlag(settings)} --file=FILE "$DATABASE_URL"`,
    'Restore it into an empty database with pg_restore (docs/operations.md, "Backups and moving data").',
  ].join('\n');
}

function postgresRestore(settings: Settings): string {
  return [
    'this Warden uses PostgreSQL (DATABASE_URL): restore a pg_dump archive into an empty database with pg_restore, then run `warden migrate`:',
    `  pg_restore --no-owner${schemaFlag(settings)} --dbname="$DATABASE_URL" FILE     (a plain SQL dump: psql "$DATABASE_URL" -f FILE)`,
    '`warden restore` installs SQLite backups made by `warden backup` (docs/operations.md, "Backups and moving data").',
  ].join('\n');
}

function holds(report: { organizations: number; monitors: number; checks: number }): string {
  return `${counted(report.organizations, 'organization')}, ${counted(report.monitors, 'monitor')}, ${counted(report.checks, 'check')}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
