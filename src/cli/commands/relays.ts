// `warden relays token|list`: relay tokens are issued here (printed alone on stdout), replacing the previous one.
import { Command } from 'commander';
import { audited } from '../../services/audit/record.js';
import type { ServiceContext } from '../../services/context.js';
import { listMonitors } from '../../services/monitors/read.js';
import { listRelays } from '../../services/relays/read.js';
import { rotateRelayToken } from '../../services/relays/rotate-token.js';
import { formatTime } from '../session.js';
import { addListCommand, addOrgCommand } from './org-option.js';

export function relaysCommand(): Command {
  const relays = new Command('relays').description('Manage relays.');
  addOrgCommand(
    relays,
    'token',
    ['<key>', 'the relay key'],
    'Issue a new token for a relay (the old one stops working) and print it.',
    async (key, ctx) => {
      // The operator, on the database itself: the new token gets every secret, including any withheld after an API rotation.
      // The operator's own rotation (writer `config`): its token gets the secrets, an API rotation's does not.
      const { token } = await audited(
        { ...ctx, writer: 'config' },
        { action: 'relay.rotate-token', object: ({ relay }) => ({ id: relay.id, label: relay.key }) },
        (tx: ServiceContext) => rotateRelayToken(tx, { key }),
      );
      process.stderr.write(
        `issued a new token for relay ${key}; the previous one no longer works. It is shown only once:\n`,
      );
      process.stdout.write(`${token}\n`);
    },
  );
  addListCommand(relays, {
    description: 'List relays.',
    load: (ctx) => Promise.all([listRelays(ctx), listMonitors(ctx)]),
    headers: ['KEY', 'NAME', 'TOKEN', 'MONITORS', 'LAST SEEN'],
    rows: ([list, monitors]) =>
      list.map((r) => [
        r.key,
        r.name,
        r.tokenPrefix ? `${r.tokenPrefix}…` : '(none)',
        String(monitors.filter((m) => m.relayId === r.id).length),
        formatTime(r.lastSeenAt),
      ]),
  });
  return relays;
}
