// `warden serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully within 10 s.
import { Command, InvalidArgumentError, Option } from 'commander';
import { readSettings } from '../../config/settings.js';
import { SHUTDOWN_TIMEOUT_MS, startWarden } from '../../main.js';
import { limitHeapGrowth, limitYoungGeneration } from '../../runtime/heap.js';
import { pinTickObjectShape } from '../../runtime/tick-shape.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description('Start the server (the default command).')
    .addOption(new Option('-c, --config <file>', 'config file (default: $WARDEN_CONFIG, else the built-in demo)'))
    .addOption(new Option('-p, --port <port>', 'port to listen on (default: $PORT or 8080)').argParser(portFlag))
    .action(async (options: { config?: string; port?: number }) => {
      const settings = readSettings(process.env, { configFile: options.config, port: options.port });
      limitHeapGrowth(settings.heapGrowthPercent);
      const youngGeneration = limitYoungGeneration(settings.youngGenerationMb);
      // Quiet spells must not slow every request after them (runtime/tick-shape.ts).
      if (settings.tickShapePin) pinTickObjectShape();
      const warden = await startWarden({ settings });
      youngGeneration.started();
      let signalled = false;
      const stop = (signal: NodeJS.Signals) => {
        if (signalled) return;
        signalled = true;
        warden.logger.info({ signal }, 'signal received');
        const force = setTimeout(() => {
          warden.logger.error('shutdown took longer than 10 s; exiting anyway');
          process.exit(1);
        }, SHUTDOWN_TIMEOUT_MS);
        force.unref();
        warden.close().then(
          () => process.exit(0),
          (error) => {
            warden.logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
}

/** --port, checked as it is parsed, before anything is opened: commander names the flag and the value it refuses. */
function portFlag(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return Number(value);
}
