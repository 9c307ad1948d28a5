// `warden relay`: the relay agent, run inside a private network until SIGTERM or SIGINT, then stopped gracefully.
import { Command, Option } from 'commander';
import { z } from 'zod';
import { settingMessage } from '../../config/setting-message.js';
import { ValidationError } from '../../domain/errors.js';
import { isSecretOfKind } from '../../domain/tokens.js';
import { createLogger, logFormatOf } from '../../logger.js';
import { loadRdapBootstrapFile, setRdapBootstrap } from '../../probes/rdap-bootstrap.js';
import { AGENT_DEFAULTS, DEFAULT_RELAY_CONCURRENCY, startRelayAgent } from '../../relay/agent.js';
import { BACKOFF_DEFAULTS } from '../../relay/backoff.js';
import { QUEUE_DEFAULTS } from '../../relay/queue.js';
import { DEFAULT_HEAP_GROWTH_PERCENT, limitHeapGrowth } from '../../runtime/heap.js';
import { pinTickObjectShape } from '../../runtime/tick-shape.js';

/** Whole shutdown budget (running checks, the final delivery); the agent exits forcibly past it. */
export const RELAY_SHUTDOWN_TIMEOUT_MS = 15_000;

const int = (min: number, max: number) => {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const optionsSchema = z.object({
  url: z.url({
    protocol: /^https?$/,
    error: 'expected the http(s) address of the Warden server, e.g. https://status.example.com',
  }),
  token: z
    .string({ error: 'expected a relay token (wdr_…): --token or WARDEN_RELAY_TOKEN' })
    .refine((t) => isSecretOfKind('relayToken', t), {
      error: 'expected a relay token starting with wdr_ (issue one with `warden relays token <key>`)',
    }),
  dataDir: z.string().min(1),
  concurrency: int(1, 10_000),
  submitEvery: int(100, 3_600_000),
  configEvery: int(1, 86_400),
  maxBackoff: int(1, 3600),
  queueMaxResults: int(1, 10_000_000),
  queueMaxMb: int(1, 100_000),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  logFormat: z.enum(['json', 'pretty'], { error: 'expected json or pretty' }).optional(),
  heapGrowthPercent: int(0, 1000),
  rdapBootstrap: z.string().min(1).optional(),
});

interface Flags {
  url?: string;
  token?: string;
  dataDir?: string;
  concurrency?: string;
  submitEvery?: string;
  configEvery?: string;
  maxBackoff?: string;
  queueMaxResults?: string;
  queueMaxMb?: string;
}

export function relayCommand(): Command {
  return new Command('relay')
    .description(
      'Run a relay agent: probe the monitors assigned to this relay from inside your network and send the results to Warden.',
    )
    .addOption(new Option('--url <url>', 'address of the Warden server (default: $WARDEN_URL)'))
    .addOption(
      new Option('--token <token>', 'relay token, wdr_… (default: $WARDEN_RELAY_TOKEN, preferred: flags show in ps)'),
    )
    .addOption(
      new Option(
        '--data-dir <dir>',
        'where results wait while the server is away (default: $WARDEN_RELAY_DATA_DIR or ./relay-data)',
      ),
    )
    .addOption(new Option('--concurrency <n>', `checks running at once (default: ${DEFAULT_RELAY_CONCURRENCY})`))
    .addOption(
      new Option('--submit-every <ms>', `how often results are sent (default: ${AGENT_DEFAULTS.submitEveryMs})`),
    )
    .addOption(
      new Option(
        '--config-every <sec>',
        `how often the config is polled (default: ${AGENT_DEFAULTS.configEveryMs / 1000})`,
      ),
    )
    .addOption(
      new Option(
        '--max-backoff <sec>',
        `longest wait between retries while the server is away (default: ${BACKOFF_DEFAULTS.maxMs / 1000})`,
      ),
    )
    .addOption(
      new Option(
        '--queue-max-results <n>',
        `results kept on disk at most; the oldest go first (default: ${QUEUE_DEFAULTS.maxResults})`,
      ),
    )
    .addOption(
      new Option(
        '--queue-max-mb <n>',
        `megabytes kept on disk at most (default: ${QUEUE_DEFAULTS.maxBytes / 1024 / 1024})`,
      ),
    )
    .action(async (flags: Flags) => {
      const options = parseOptions(flags, process.env);
      limitHeapGrowth(options.heapGrowthPercent);
      // An agent waits between rounds of checks: the quiet must not slow the rounds after it (runtime/tick-shape.ts).
      pinTickObjectShape();
      const logger = createLogger(options.logLevel, undefined, { format: logFormatOf(options.logFormat) }).child({
        component: 'relay',
      });
      // A newer copy of IANA's RDAP bootstrap registry, as the server takes it: a file that is not one stops the start.
      if (options.rdapBootstrap) setRdapBootstrap(loadRdapBootstrapFile(options.rdapBootstrap));
      const agent = await startRelayAgent({
        url: options.url,
        token: options.token,
        dataDir: options.dataDir,
        logger,
        concurrency: options.concurrency,
        submitEveryMs: options.submitEvery,
        configEveryMs: options.configEvery * 1000,
        backoff: {
          baseMs: Math.min(BACKOFF_DEFAULTS.baseMs, options.maxBackoff * 1000),
          maxMs: options.maxBackoff * 1000,
        },
        queue: { maxResults: options.queueMaxResults, maxBytes: options.queueMaxMb * 1024 * 1024 },
      });
      let signalled = false;
      const stop = (signal: NodeJS.Signals) => {
        if (signalled) return;
        signalled = true;
        logger.info({ signal }, 'signal received');
        const force = setTimeout(() => {
          logger.error(
            `shutdown took longer than ${RELAY_SHUTDOWN_TIMEOUT_MS / 1000} s; exiting anyway (queued results stay on disk)`,
          );
          process.exit(1);
        }, RELAY_SHUTDOWN_TIMEOUT_MS);
        force.unref();
        agent.stop().then(
          () => {
            logger.flush();
            process.exit(0);
          },
          (error) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
}

function parseOptions(flags: Flags, env: NodeJS.ProcessEnv) {
  const pick = (flag: string | undefined, variable: string | undefined, fallback?: string) =>
    flag ?? (variable === '' ? undefined : variable) ?? fallback;
  const input = {
    url: pick(flags.url, env.WARDEN_URL),
    token: pick(flags.token, env.WARDEN_RELAY_TOKEN),
    dataDir: pick(flags.dataDir, env.WARDEN_RELAY_DATA_DIR, './relay-data'),
    concurrency: flags.concurrency ?? DEFAULT_RELAY_CONCURRENCY,
    submitEvery: flags.submitEvery ?? AGENT_DEFAULTS.submitEveryMs,
    configEvery: flags.configEvery ?? AGENT_DEFAULTS.configEveryMs / 1000,
    maxBackoff: flags.maxBackoff ?? BACKOFF_DEFAULTS.maxMs / 1000,
    queueMaxResults: flags.queueMaxResults ?? QUEUE_DEFAULTS.maxResults,
    queueMaxMb: flags.queueMaxMb ?? QUEUE_DEFAULTS.maxBytes / 1024 / 1024,
    logLevel: pick(undefined, env.LOG_LEVEL, 'info'),
    logFormat: pick(undefined, env.LOG_FORMAT),
    heapGrowthPercent: pick(undefined, env.WARDEN_HEAP_GROWTH_PERCENT, String(DEFAULT_HEAP_GROWTH_PERCENT)),
    rdapBootstrap: pick(undefined, env.WARDEN_RDAP_BOOTSTRAP),
  };
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    // Where each value came from: its variable, unless a flag gave it.
    const variables: Record<string, string> = {
      logLevel: 'LOG_LEVEL',
      logFormat: 'LOG_FORMAT',
      heapGrowthPercent: 'WARDEN_HEAP_GROWTH_PERCENT',
      rdapBootstrap: 'WARDEN_RDAP_BOOTSTRAP',
      ...(flags.url === undefined ? { url: 'WARDEN_URL' } : {}),
      ...(flags.token === undefined ? { token: 'WARDEN_RELAY_TOKEN' } : {}),
      ...(flags.dataDir === undefined ? { dataDir: 'WARDEN_RELAY_DATA_DIR' } : {}),
    };
    const flag = (key: string) => variables[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new ValidationError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0] ?? '');
        return { path: flag(key), message: settingMessage(i, input[key as keyof typeof input], key === 'token') };
      }),
      'the relay agent cannot start:',
    );
  }
  return parsed.data;
}
