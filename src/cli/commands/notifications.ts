// `warden notifications list|test`: the notification channels, and a test sent through one now (recorded in its deliveries).
import { Command } from 'commander';
import { readSettings } from '../../config/settings.js';
import { channelId } from '../../services/audit/labels.js';
import { audited } from '../../services/audit/record.js';
import type { ServiceContext } from '../../services/context.js';
import { listChannels } from '../../services/notifications/read.js';
import { testChannel } from '../../services/notifications/send-test.js';
import { withOrganization } from '../session.js';
import { addListCommand, orgOption } from './org-option.js';

export function notificationsCommand(): Command {
  const notifications = new Command('notifications').description('Inspect and test notification channels.');
  addListCommand(notifications, {
    description: 'List notification channels.',
    json: true,
    load: listChannels,
    headers: ['KEY', 'NAME', 'TYPE', 'ENABLED', 'MANAGED BY'],
    rows: (list) => list.map((c) => [c.key, c.name, c.type, c.enabled ? 'yes' : 'no', c.managedBy]),
  });
  notifications
    .command('test')
    .argument('<key>', 'the channel key')
    .description(
      'Send a test notification through the channel now and print what the receiver answered (exit 1 when it failed).',
    )
    .addOption(orgOption())
    .action(async (key: string, options: { org?: string }) => {
      await withOrganization(options.org, async (ctx) => {
        // The send holds no transaction: the entry follows it.
        const { outcome, delivery } = await audited(
          ctx,
          {
            action: 'notification-channel.test',
            object: () => ({ id: null, label: key }),
            before: async (tx) => ({ id: (await channelId(tx, { key }))?.id ?? null }),
            detail: ({ outcome }) => ({ outcome }),
            outside: true,
          },
          // Under the organization's target policy, as the server sends (WARDEN_PROBE_PRIVATE_TARGETS with its own setting).
          (tx: ServiceContext) =>
            testChannel({ ...tx, privateTargets: readSettings().security.probePrivateTargets }, { key }),
        );
        const status = delivery.lastStatus === null ? '' : ` (HTTP ${delivery.lastStatus})`;
        if (outcome === 'sent') process.stdout.write(`sent a test to ${key}${status}; event id ${delivery.eventId}\n`);
        else {
          process.stdout.write(`the test to ${key} failed${status}: ${delivery.lastError ?? 'unknown error'}\n`);
          if (delivery.lastAnswer) process.stdout.write(`answer: ${delivery.lastAnswer}\n`);
          process.exitCode = 1;
        }
      });
    });
  return notifications;
}
