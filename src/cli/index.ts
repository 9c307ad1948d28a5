#!/usr/bin/env node
// The `warden` command: serve (default), migrate, config, keys, relays, monitors, notifications, cluster, users, demo,
// setup-code, backup, restore, export, import.
// First: it extends zod with .openapi(), which must happen before any schema is created.
import '@hono/zod-openapi';
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config-error.js';
import { WardenError } from '../domain/errors.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const program = new Command('warden')
  .description('Status pages and monitoring for game servers and web services.')
  .version(version)
  .showHelpAfterError()
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
  .exitOverride();

/**
 * Each command's module, loaded only when it runs: `warden keys create` need not load the HTTP server, the renderers
 * and the MCP SDK that `serve` does (half the start-up of a short command). Help loads them all; a mistyped command none.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand(),
  migrate: async () => (await import('./commands/migrate.js')).migrateCommand(),
  config: async () => (await import('./commands/config.js')).configCommand(),
  keys: async () => (await import('./commands/keys.js')).keysCommand(),
  relay: async () => (await import('./commands/relay.js')).relayCommand(),
  relays: async () => (await import('./commands/relays.js')).relaysCommand(),
  monitors: async () => (await import('./commands/monitors.js')).monitorsCommand(),
  notifications: async () => (await import('./commands/notifications.js')).notificationsCommand(),
  cluster: async () => (await import('./commands/cluster.js')).clusterCommand(),
  users: async () => (await import('./commands/users.js')).usersCommand(),
  demo: async () => (await import('./commands/demo.js')).demoCommand(),
  'setup-code': async () => (await import('./commands/setup-code.js')).setupCodeCommand(),
  backup: async () => (await import('./commands/backup.js')).backupCommand(),
  restore: async () => (await import('./commands/backup.js')).restoreCommand(),
  export: async () => (await import('./commands/export.js')).exportCommand(),
  import: async () => (await import('./commands/import.js')).importCommand(),
};

// No top-level await: the production bundle is a CommonJS script, so that V8 can keep its compiled code (launch.ts).
void main();

async function main(): Promise<void> {
  const first = process.argv[2];
  // No command, or only options: `serve`, the default.
  const named =
    first === undefined || first.startsWith('-')
      ? first === '--help' || first === '-h' || first === '--version' || first === '-V'
        ? undefined
        : 'serve'
      : first;
  const asksHelp = named === 'help' || process.argv.includes('--help') || process.argv.includes('-h');
  if (first === '--version' || first === '-V') {
    // Answered from package.json alone: loading every command, as help does, took half of `warden --version`.
  } else if (named !== undefined && !Object.hasOwn(COMMANDS, named) && !asksHelp) {
    // A mistyped command (`warden srve`): without a default command to take the word as its argument, commander names it
    // and suggests the nearest command, from their names alone, loading no module.
    for (const name of Object.keys(COMMANDS)) program.addCommand(new Command(name));
    program.showHelpAfterError('(`warden --help` lists the commands)');
  } else {
    for (const [name, load] of Object.entries(COMMANDS))
      if (named === undefined || !Object.hasOwn(COMMANDS, named) || name === named)
        program.addCommand(await load(), { isDefault: name === 'serve' });
  }

  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (error instanceof WardenError) {
    const issues = 'issues' in error && Array.isArray(error.issues) ? error.issues : [];
    process.stderr.write(
      `error: ${error.message}\n${issues.map((i: { path: string; message: string }) => `  - ${i.path}: ${i.message}\n`).join('')}`,
    );
    return 1;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
