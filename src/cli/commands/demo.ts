// `warden demo remove`: deletes the built-in demo (its organization, monitors and page), working while the server runs.
import { Command } from 'commander';
import { removeDemo } from '../../services/organizations/demo.js';
import { withServices } from '../session.js';

export function demoCommand(): Command {
  const demo = new Command('demo').description('The built-in demo loaded into an empty database.');
  demo
    .command('remove')
    .description('Delete the built-in demo: its organization, monitors, page and history.')
    .action(async () => {
      await withServices(async (ctx) => {
        const { wasAlone } = await removeDemo({ ...ctx, actor: { kind: 'system', name: 'cli' } });
        process.stderr.write(
          wasAlone
            ? 'removed the built-in demo; with no organization of your own, the next start without a config file loads it again\n'
            : 'removed the built-in demo\n',
        );
      });
    });
  return demo;
}
