// `warden migrate`: brings the database schema up to date (the server also does this on start).
import { Command } from 'commander';
import { migrateToLatest } from '../../store/migrate.js';
import { withStore } from '../store-session.js';

export function migrateCommand(): Command {
  return new Command('migrate').description('Apply pending database migrations.').action(async () => {
    await withStore(async (store) => {
      const report = await migrateToLatest(store.db);
      process.stderr.write(
        report.applied.length > 0
          ? `applied ${report.applied.join(', ')} to ${store.location}\n`
          : `${store.location} is up to date (${report.current})\n`,
      );
    }, { migrate: false });
  });
}
