// `warden config check|schema|apply`: validate a config file, print its JSON Schema, or apply it without starting the server.
import { Command } from 'commander';
import { type AdoptedOrganization, applyConfig } from '../../config/apply.js';
import { configJsonSchema } from '../../config/file-schema.js';
import { loadConfigFile } from '../../config/load.js';
import { readSettings } from '../../config/settings.js';
import { counted } from '../../domain/counted.js';
import { ValidationError } from '../../domain/errors.js';
import { type NewPushToken, pushUrl } from '../../services/push/announce-push-tokens.js';
import { guessNote, type ServerAddress, serverAddress } from '../../services/server-address.js';
import { withServices } from '../session.js';

export function configCommand(): Command {
  const config = new Command('config').description('Work with warden.yaml.');
  config
    .command('check')
    .argument('<file>', 'the config file')
    .description('Validate a config file, and the environment a server would start with; lists every problem by path.')
    .action(async (file: string) => {
      // The environment too: a server started with it would refuse a wrong variable before it read the file.
      readSettings();
      const parsed = await loadConfigFile(file);
      const components = parsed.pages.reduce((n, p) => n + p.components.length, 0);
      process.stdout.write(
        `${file} is valid: ${counted(parsed.relays.length, 'relay')}, ${counted(parsed.monitors.length, 'monitor')}, ${counted(parsed.pages.length, 'page')}, ${counted(components, 'component')}\n`,
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
    .option(
      '--adopt <key>',
      "take over the file's organization (its key, again) though no config file made it: one made through a sign-up or the API, whose members and API keys keep their access",
    )
    .action(async (file: string | undefined, options: { adopt?: string }) => {
      const path = file ?? readSettings().configFile;
      if (!path)
        throw new ValidationError([{ path: 'file', message: 'give a file or set WARDEN_CONFIG' }], 'No config file.');
      const parsed = await loadConfigFile(path);
      const key = parsed.organization.key;
      if (options.adopt !== undefined && options.adopt !== key)
        throw new ValidationError(
          [{ path: 'adopt', message: `the file's organization is "${key}"` }],
          `--adopt names the organization to take over: --adopt ${key}.`,
        );
      if (options.adopt !== undefined && parsed.organization.name === undefined)
        throw new ValidationError(
          [{ path: 'adopt', message: 'the file names its organization by its key alone, so it takes nothing over' }],
          '--adopt is for a file that manages its organization (one that gives its name).',
        );
      await withServices(
        async (ctx) => {
          const report = await applyConfig(ctx, parsed, { adopt: options.adopt !== undefined });
          if (report.adopted) printAdoption(key, report.adopted);
          process.stderr.write(
            `applied ${path}: ${report.created.length} created, ${report.updated.length} updated, ${report.deleted.length} deleted, ${report.unchanged} unchanged\n`,
          );
          printPushUrls(report.generatedPushTokens, await serverAddress(ctx, readSettings().port));
        },
        { create: true },
      );
    });
  return config;
}

/** Who keeps access to the organization the file took over: the operator reviews them (it may not all be theirs). */
function printAdoption(key: string, { members, activeApiKeys }: AdoptedOrganization): void {
  const who = members.map((m) => `${m.email} (${m.role})`).join(', ') || 'none';
  process.stderr.write(
    `adopted organization "${key}": the file manages it from now on. Its members keep their access: ${who}; and ${activeApiKeys} active API key(s). Review them with \`warden users list\` and \`warden keys list --org ${key}\`.\n`,
  );
}

/**
 * The push URLs of the heartbeat monitors that got a token now (the file fixed none): on standard output, one
 * `KEY URL` line each, since the token is shown nowhere else; what they are on standard error.
 */
function printPushUrls(tokens: readonly NewPushToken[], address: ServerAddress): void {
  if (tokens.length === 0) return;
  process.stderr.write(
    `${guessNote(address)}new heartbeat push URLs (shown this once: the token is stored hashed; \`warden monitors token KEY\` issues a new one, or fix one in the file with pushToken):\n`,
  );
  for (const { monitor, token } of tokens) process.stdout.write(`${monitor} ${pushUrl(address.url, token)}\n`);
}
