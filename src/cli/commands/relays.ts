// `warden relays token|list`: relay tokens are issued here (printed alone on stdout), replacing the previous one.
import { Command, Option } from 'commander';
import { resolveOrganization } from '../../services/organizations/resolve.js';
import { issueRelayToken } from '../../services/relays/issue-token.js';
import { listMonitors } from '../../store/monitors.js';
import { listRelays } from '../../store/relays.js';
import { formatTime, printTable, withStore } from '../store-session.js';

const orgOption = () => new Option('--org <key>', 'organization key (default: the only one)');

export function relaysCommand(): Command {
  const relays = new Command('relays').description('Manage relays.');
  relays
    .command('token')
    .argument('<key>', 'the relay key')
    .description('Issue a new token for a relay (the old one stops working) and print it.')
    .addOption(orgOption())
    .action(async (key: string, options: { org?: string }) => {
      await withStore(async ({ db }) => {
        const organization = await resolveOrganization(db, options.org);
        const token = await issueRelayToken(db, organization.id, key, Date.now());
        process.stderr.write(`issued a new token for relay ${key}; the previous one no longer works. It is shown only once:\n`);
        process.stdout.write(`${token}\n`);
      });
    });
  relays
    .command('list')
    .description('List relays.')
    .addOption(orgOption())
    .action(async (options: { org?: string }) => {
      await withStore(async ({ db }) => {
        const organization = await resolveOrganization(db, options.org);
        const [list, monitors] = await Promise.all([listRelays(db, organization.id), listMonitors(db, organization.id)]);
        printTable(
          ['KEY', 'NAME', 'TOKEN', 'MONITORS', 'LAST SEEN'],
          list.map((r) => [
            r.key,
            r.name,
            r.tokenPrefix ? `${r.tokenPrefix}…` : '(none)',
            String(monitors.filter((m) => m.relayId === r.id).length),
            formatTime(r.lastSeenAt),
          ]),
        );
      });
    });
  return relays;
}
