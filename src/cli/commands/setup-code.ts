// `warden setup-code`: while no account exists, a new setup code for the dashboard's setup screen (/app), printed alone
// on stdout; the earlier code (and the start-up log's) stops working. With an account, it says so and fails.
import { Command } from 'commander';
import { readSettings } from '../../config/settings.js';
import { ConflictError } from '../../domain/errors.js';
import { openSetupCode } from '../../services/accounts/setup-code.js';
import { guessNote, serverAddress } from '../../services/server-address.js';
import { formatTime, withServices } from '../session.js';

export function setupCodeCommand(): Command {
  return new Command('setup-code')
    .description('Print a new one-time code that creates the first owner at /app (only while no account exists).')
    .action(async () => {
      await withServices(async (ctx) => {
        const setup = await openSetupCode(ctx);
        if (!setup)
          throw new ConflictError(
            'An account exists already: sign in at /app, or run `warden users reset-password --email …`.',
          );
        const where = await serverAddress(ctx, readSettings().port);
        process.stderr.write(
          `${guessNote(where)}enter this code at ${where.url}/app before ${formatTime(setup.expiresAt)}; it works once, and the previous code no longer does:\n`,
        );
        process.stdout.write(`${setup.code}\n`);
      });
    });
}
