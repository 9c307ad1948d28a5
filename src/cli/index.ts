#!/usr/bin/env node
// The `warden` command: serve (default), migrate, config, keys, relays, monitors, notifications, cluster.
// First: it extends zod with .openapi(), which must happen before any schema is created.
import '@hono/zod-openapi';
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load.js';
import { WardenError } from '../domain/errors.js';
import { clusterCommand } from './commands/cluster.js';
import { configCommand } from './commands/config.js';
import { keysCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { monitorsCommand } from './commands/monitors.js';
import { notificationsCommand } from './commands/notifications.js';
import { relayCommand } from './commands/relay.js';
import { relaysCommand } from './commands/relays.js';
import { serveCommand } from './commands/serve.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('warden')
  .description('Status pages and monitoring for game servers and web services.')
  .version(version)
  .showHelpAfterError()
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
  .exitOverride();

program.addCommand(serveCommand(), { isDefault: true });
program.addCommand(migrateCommand());
program.addCommand(configCommand());
program.addCommand(keysCommand());
program.addCommand(relayCommand());
program.addCommand(relaysCommand());
program.addCommand(monitorsCommand());
program.addCommand(notificationsCommand());
program.addCommand(clusterCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (error instanceof WardenError) {
    const issues = 'issues' in error && Array.isArray(error.issues) ? error.issues : [];
    process.stderr.write(`error: ${error.message}\n${issues.map((i: { path: string; message: string }) => `  - ${i.path}: ${i.message}\n`).join('')}`);
    return 1;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
