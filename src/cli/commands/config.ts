// `warden config check|schema|apply`: validate a config file, print its JSON Schema, or apply it without starting the server.
import { Command } from 'commander';
import { applyConfig } from '../../config/apply.js';
import { configJsonSchema } from '../../config/file-schema.js';
import { loadConfigFile } from '../../config/load.js';
import { readSettings } from '../../config/settings.js';
import { ValidationError } from '../../domain/errors.js';
import { withServices } from '../session.js';

export function configCommand(): Command {
  const config = new Command('config').description('Work with warden.yaml.');
  config
    .command('check')
    .argument('<file>', 'the config file')
    .description('Validate a config file; lists every problem by path.')
    .action(async (file: string) => {
      const parsed = await loadConfigFile(file);
      const components = parsed.pages.reduce((n, p) => n + p.components.length, 0);
      process.stdout.write(
        `${file} is valid: ${parsed.relays.length} relays, ${parsed.monitors.length} monitors, ${parsed.pages.length} pages, ${components} components\n`,
      );
    });
  config
    .command('schema')
    .description('Print the JSON Schema of the config file, for editors.')
    .action(() => {
      process.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    });
  config
    .command('apply')
    .argument('[file]', 'the config file (default: $WARDEN_CONFIG)')
    .description('Apply a config file to the database, as the server does on start.')
    .action(async (file: string | undefined) => {
      const path = file ?? readSettings().configFile;
      if (!path) throw new ValidationError([{ path: 'file', message: 'give a file or set WARDEN_CONFIG' }], 'No config file.');
      const parsed = await loadConfigFile(path);
      await withServices(async (ctx) => {
        const report = await applyConfig(ctx, parsed);
        process.stderr.write(
          `applied ${path}: ${report.created.length} created, ${report.updated.length} updated, ${report.deleted.length} deleted, ${report.unchanged} unchanged\n`,
        );
      });
    });
  return config;
}
