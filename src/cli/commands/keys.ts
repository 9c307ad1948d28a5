// `warden keys create|list|revoke`: the organization's API keys. `create` prints the key alone on stdout.
import { Command, Option } from 'commander';
import { createApiKey } from '../../services/api-keys/create.js';
import { listApiKeys, revokeApiKey } from '../../services/api-keys/list.js';
import { audited } from '../../services/audit/record.js';
import type { ServiceContext } from '../../services/context.js';
import { formatTime, withOrganization } from '../session.js';
import { addListCommand, addOrgCommand, orgOption } from './org-option.js';

export function keysCommand(): Command {
  const keys = new Command('keys').description('Manage API keys.');
  keys
    .command('create')
    .description('Create an API key and print it (shown once).')
    .requiredOption('--name <name>', 'what the key is for')
    .addOption(new Option('--scope <scope>', 'read or write').choices(['read', 'write']).default('read'))
    .addOption(orgOption())
    .action(async (options: { name: string; scope: 'read' | 'write'; org?: string }) => {
      await withOrganization(options.org, async (ctx, organization) => {
        const { apiKey, secret } = await audited(
          ctx,
          {
            action: 'api-key.create',
            object: ({ apiKey }) => ({ id: apiKey.id, label: apiKey.name }),
            detail: () => ({ fields: ['name', 'scope'], scope: options.scope }),
          },
          (tx: ServiceContext) => createApiKey(tx, { name: options.name, scope: options.scope }),
        );
        process.stderr.write(
          `created ${options.scope} key ${apiKey.id} (${apiKey.prefix}…) for ${organization.key}; it is shown only once:\n`,
        );
        process.stdout.write(`${secret}\n`);
      });
    });
  addListCommand(keys, {
    description: 'List API keys (prefixes only).',
    load: listApiKeys,
    headers: ['ID', 'NAME', 'PREFIX', 'SCOPE', 'CREATED', 'LAST USED', 'STATUS'],
    rows: (list) =>
      list.map((k) => [
        k.id,
        k.name,
        `${k.prefix}…`,
        k.scope,
        formatTime(k.createdAt),
        formatTime(k.lastUsedAt),
        k.revokedAt ? 'revoked' : 'active',
      ]),
  });
  addOrgCommand(keys, 'revoke', ['<id>', 'the key id (from `keys list`)'], 'Revoke an API key.', async (id, ctx) => {
    const name = async (tx: ServiceContext) => ({
      label: (await listApiKeys(tx)).find((k) => k.id === id)?.name ?? null,
    });
    await audited(
      ctx,
      { action: 'api-key.revoke', object: () => ({ id, label: null }), before: name },
      (tx: ServiceContext) => revokeApiKey(tx, { id }),
    );
    process.stderr.write(`revoked ${id}\n`);
  });
  return keys;
}
