// `warden migrate`: brings the database schema up to date (the server also does this on start).
import { Command } from 'commander';
import { migrateDatabase } from '../../services/database.js';
import { withServices } from '../session.js';

export function migrateCommand(): Command {
  return new Command('migrate').description('Apply pending database migrations.').action(async () => {
    await withServices(
      async (ctx) => {
        const report = await migrateDatabase(ctx);
        process.stderr.write(
          report.applied.length > 0
            ? `applied ${report.applied.join(', ')} to ${report.location}\n`
            : `${report.location} is up to date (${report.current})\n`,
        );
      },
      // The one command (with `serve` and `config apply`) that may set up a new database.
      { migrate: false, create: true },
    );
  });
}
