// `warden monitors list|token`: monitors with their state; push tokens for heartbeat monitors (printed alone on stdout).
import { Command } from 'commander';
import { audited } from '../../services/audit/record.js';
import type { ServiceContext } from '../../services/context.js';
import { rotatePushToken } from '../../services/monitors/push-token.js';
import { listMonitors } from '../../services/monitors/read.js';
import { formatTime } from '../session.js';
import { addListCommand, addOrgCommand } from './org-option.js';

export function monitorsCommand(): Command {
  const monitors = new Command('monitors').description('Inspect monitors.');
  addListCommand(monitors, {
    description: 'List monitors with their state and latest result.',
    json: true,
    load: listMonitors,
    headers: ['KEY', 'NAME', 'TYPE', 'RUNS ON', 'EVERY', 'STATE', 'LAST CHECK'],
    rows: (list) =>
      list.map((m) => [
        m.key,
        m.name,
        m.type,
        m.runOn === 'relay' ? `relay ${m.relayKey ?? '?'}` : m.runOn,
        m.runOn === 'push' ? '-' : `${m.intervalSec}s`,
        m.enabled ? m.state : 'disabled',
        formatTime(m.latest?.checkedAt ?? null),
      ]),
  });
  addOrgCommand(
    monitors,
    'token',
    ['<key>', 'the monitor key'],
    'Issue a new push token for a heartbeat monitor (the old one stops working) and print it.',
    async (key, ctx) => {
      const { pushToken } = await audited(
        ctx,
        { action: 'monitor.rotate-push-token', object: ({ monitor }) => ({ id: monitor.id, label: monitor.key }) },
        (tx: ServiceContext) => rotatePushToken(tx, { key }),
      );
      process.stderr.write(
        `issued a new push token for ${key}; the previous one no longer works. It is shown only once:\n`,
      );
      process.stdout.write(`${pushToken}\n`);
    },
  );
  return monitors;
}
