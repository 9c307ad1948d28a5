// `warden monitors list|token`: monitors with their state; push tokens for heartbeat monitors (printed alone on stdout).
import { Command, Option } from 'commander';
import { issuePushToken } from '../../services/monitors/issue-push-token.js';
import { monitorView } from '../../services/monitors/view.js';
import { resolveOrganization } from '../../services/organizations/resolve.js';
import { listMonitors } from '../../store/monitors.js';
import { listRelays } from '../../store/relays.js';
import { formatTime, printTable, withStore } from '../store-session.js';

const orgOption = () => new Option('--org <key>', 'organization key (default: the only one)');

export function monitorsCommand(): Command {
  const monitors = new Command('monitors').description('Inspect monitors.');
  monitors
    .command('list')
    .description('List monitors with their state and latest result.')
    .option('--json', 'print JSON (secrets redacted)')
    .addOption(orgOption())
    .action(async (options: { json?: boolean; org?: string }) => {
      await withStore(async ({ db }) => {
        const organization = await resolveOrganization(db, options.org);
        const [list, relays] = await Promise.all([listMonitors(db, organization.id), listRelays(db, organization.id)]);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(list.map(monitorView), null, 2)}\n`);
          return;
        }
        const relayKey = new Map(relays.map((r) => [r.id, r.key]));
        printTable(
          ['KEY', 'NAME', 'TYPE', 'RUNS ON', 'EVERY', 'STATE', 'LAST CHECK'],
          list.map((m) => [
            m.key,
            m.name,
            m.type,
            m.runOn === 'relay' ? `relay ${relayKey.get(m.relayId ?? '') ?? '?'}` : m.runOn,
            m.runOn === 'push' ? '-' : `${m.intervalSec}s`,
            m.enabled ? m.state : 'disabled',
            formatTime(m.lastCheckAt),
          ]),
        );
      });
    });
  monitors
    .command('token')
    .argument('<key>', 'the monitor key')
    .description('Issue a new push token for a heartbeat monitor (the old one stops working) and print it.')
    .addOption(orgOption())
    .action(async (key: string, options: { org?: string }) => {
      await withStore(async ({ db }) => {
        const organization = await resolveOrganization(db, options.org);
        const token = await issuePushToken(db, organization.id, key, Date.now());
        process.stderr.write(`issued a new push token for ${key}; the previous one no longer works. It is shown only once:\n`);
        process.stdout.write(`${token}\n`);
      });
    });
  return monitors;
}
