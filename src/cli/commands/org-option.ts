// The --org option of the commands that act on one organization, and the `list` subcommand they share: the
// organization's items as a table (or as JSON with --json, where the command offers it).
import { type Command, Option } from 'commander';
import type { ServiceContext } from '../../services/context.js';
import { printTable, withOrganization } from '../session.js';

export const orgOption = () => new Option('--org <key>', 'organization key (default: the only one)');

export interface ListSpec<T> {
  description: string;
  /** Offer --json, printing what `load` returned (the services redact secrets). */
  json?: boolean;
  load(ctx: ServiceContext): Promise<T>;
  headers: string[];
  rows(loaded: T): string[][];
}

/** Adds `list` to `parent`, run within the organization --org names. */
export function addListCommand<T>(parent: Command, spec: ListSpec<T>): void {
  const list = parent.command('list').description(spec.description);
  if (spec.json) list.option('--json', 'print JSON (secrets redacted)');
  list.addOption(orgOption()).action(async (options: { json?: boolean; org?: string }) => {
    await withOrganization(options.org, async (ctx) => {
      const loaded = await spec.load(ctx);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(loaded, null, 2)}\n`);
        return;
      }
      printTable(spec.headers, spec.rows(loaded));
    });
  });
}

/** Adds `name <argument>` to `parent`: `run` gets the argument, within the organization --org names. */
export function addOrgCommand(
  parent: Command,
  name: string,
  argument: [string, string],
  description: string,
  run: (arg: string, ctx: ServiceContext) => Promise<void>,
): void {
  parent
    .command(name)
    .argument(...argument)
    .description(description)
    .addOption(orgOption())
    .action(async (arg: string, options: { org?: string }) => {
      await withOrganization(options.org, (ctx) => run(arg, ctx));
    });
}
