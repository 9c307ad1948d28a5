// `warden cluster status`: the instances sharing this database, the shards each holds and who runs each singleton.
import { Command } from 'commander';
import { SHARD_COUNT } from '../../domain/cluster.js';
import { clusterStatus } from '../../services/cluster/status.js';
import { formatTime, printTable, withServices } from '../session.js';

export function clusterCommand(): Command {
  const cluster = new Command('cluster').description(
    'Inspect cluster mode (several Warden processes on one PostgreSQL database).',
  );
  cluster
    .command('status')
    .description('List the instances, the shards each holds, and the singletons with their holder and lease expiry.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withServices(async (ctx) => {
        const status = await clusterStatus(ctx);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
          return;
        }
        if (status.instances.length === 0) {
          process.stderr.write(
            'no instance has joined a cluster on this database (cluster mode needs DATABASE_URL and REDIS_URL)\n',
          );
          return;
        }
        const runs = (id: string) => status.singletons.filter((s) => s.holder === id).map((s) => s.name);
        printTable(
          ['INSTANCE', 'STATE', 'SHARDS', 'SINGLETONS', 'LAST SEEN', 'STARTED', 'VERSION'],
          status.instances.map((i) => [
            i.id,
            i.live ? 'live' : 'gone',
            String(i.shards),
            runs(i.id).join(',') || '-',
            formatTime(i.seenAt),
            formatTime(i.startedAt),
            typeof i.info.version === 'string' ? i.info.version : '-',
          ]),
        );
        process.stdout.write('\n');
        printTable(
          ['SINGLETON', 'HOLDER', 'LEASE EXPIRES'],
          status.singletons.map((s) => [s.name, s.holder ?? '(free)', formatTime(s.expiresAt)]),
        );
        process.stdout.write(`\nshards not held: ${status.unheldShards} of ${SHARD_COUNT}\n`);
      });
    });
  return cluster;
}
