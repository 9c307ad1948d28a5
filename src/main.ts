// Composition root: settings → store → Redis → services → HTTP → runners → serving, each a part of one lifecycle
// (src/runtime/lifecycle.ts) that starts them in order, stops them in reverse, and stops what had started when a start
// fails. The parts' wiring lives in src/compose/; the store is opened here (the store seam's lint rule).
// First: it extends zod with .openapi(), which must happen before any schema is created.
import '@hono/zod-openapi';

import { readFileSync } from 'node:fs';
import { type Boot, made } from './compose/boot.js';
import { announceSetupLink } from './compose/first-run.js';
import type { DomainOptions } from './compose/options.js';
import { runnerParts } from './compose/runner-parts.js';
import { serverParts, servingPart } from './compose/server-parts.js';
import { composeServices } from './compose/services.js';
import type { SyncReport } from './config/apply.js';
import type { ConfigFile } from './config/file-schema.js';
import type { Settings } from './config/settings.js';
import { type Clock, systemClock } from './domain/clock.js';
import { createLogger, type Logger } from './logger.js';
import type { WardenMetrics } from './metrics/recorder.js';
import { describeSmtp, type SmtpSettings } from './notify/mail/smtp.js';
import { loadRdapBootstrapFile, setRdapBootstrap } from './probes/rdap-bootstrap.js';
import { watchStorage } from './runner/storage-watch.js';
import { codeCacheState } from './runtime/launcher.js';
import { createLifecycle, type Part } from './runtime/lifecycle.js';
import { announcePages } from './services/pages/announce-pages.js';
import { announcePushTokens } from './services/push/announce-push-tokens.js';
import { recordServerAddress } from './services/server-address.js';
import type { Store } from './store/index.js';
import { openStore } from './store/open-store.js';

/** This build's version, told to the other instances of a cluster (`warden cluster status`). */
const WARDEN_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Whole shutdown budget; the CLI exits forcibly past it. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;
/** What the parts' stops may take together: the rest of the budget is the CLI's margin to flush the logs and exit. */
const STOP_BUDGET_MS = SHUTDOWN_TIMEOUT_MS - 1_000;

export interface StartOptions {
  settings: Settings;
  /** Custom-domain verification: DNS servers and re-check period (tests point them at a fake DNS server). */
  domains?: DomainOptions | undefined;
  clock?: Clock;
  logger?: Logger;
  /** Opens the database from the settings; tests wrap it (test/fakes/held-store.ts holds the start-up back). */
  openStore?: typeof openStore;
  /** Called after each part of the lifecycle started, by name; tests throw here to fail the start at that part. */
  afterStart?: ((part: string) => Promise<void> | void) | undefined;
}

export interface Warden {
  url: string;
  port: number;
  store: Store;
  logger: Logger;
  /** What the config file (or the demo) changed; null when neither was applied. */
  syncReport: SyncReport | null;
  close(): Promise<void>;
}

export async function startWarden(options: StartOptions): Promise<Warden> {
  const boot = await prepare(options);
  const { logger, settings } = boot;
  const services = () => made(boot.services, 'the services');
  const parts = [
    ...storeParts(boot, options.openStore ?? openStore),
    servicesPart(boot),
    ...serverParts(boot),
    ...runnerParts(services, settings.cluster !== undefined),
    servingPart(boot),
  ];
  const lifecycle = createLifecycle(parts, { logger, stopBudgetMs: STOP_BUDGET_MS, afterStart: options.afterStart });
  await lifecycle.start();
  const { url } = boot;
  const { syncReport, demoPushToken } = boot.applied;
  // The Open Graph image's layout engine and fonts (~300 ms of CPU, ~30 MiB) are loaded by the first og.png asked for, not
  // warmed up ahead: a server whose pages are never shared never holds them (docs/operations.md, Memory).
  const codeCache = codeCacheState();
  logger.info(
    {
      url,
      config: settings.configFile ?? (demoPushToken ? 'built-in demo' : 'none'),
      ...(codeCache ? { codeCache } : {}),
    },
    `Warden is listening on ${url}`,
  );
  const { context, pages } = services();
  announcePages(logger, pages.pages(), boot.baseUrl);
  // Heartbeat monitors warden.yaml gave no pushToken: their new URLs, whose token appears nowhere else.
  if (syncReport) announcePushTokens(logger, syncReport.generatedPushTokens, boot.baseUrl);
  // The address the command line's links name (`warden users create`, `config apply`) when WARDEN_BASE_URL is unset.
  await recordServerAddress(context, boot.baseUrl).catch((error: unknown) =>
    logger.warn({ err: error }, 'recording the server address failed'),
  );
  await announceSetupLink(context, logger, boot.baseUrl);

  let closing: Promise<void> | null = null;
  return {
    url,
    port: boot.port,
    store: made(boot.store, 'the store'),
    logger,
    syncReport,
    close() {
      closing ??= (async () => {
        await lifecycle.stop();
        logger.info('shutdown complete');
        logger.flush();
      })();
      return closing;
    },
  };
}

/** What is read before anything opens: a bad config file or RDAP registry fails the start before the database or the port. */
async function prepare({ settings, clock = systemClock, logger: given, domains }: StartOptions): Promise<Boot> {
  const logger = given ?? createLogger(settings.logLevel, undefined, { format: settings.logFormat });
  const fileConfig: ConfigFile | null = settings.configFile
    ? // The YAML reader only when there is a file: the demo and a database-held configuration do without it.
      await (await import('./config/load.js')).loadConfigFile(settings.configFile)
    : null;
  // A newer copy of IANA's RDAP bootstrap registry (domain-expiry monitors): a file that is not one stops the start here.
  if (settings.rdapBootstrapFile) {
    const bootstrap = loadRdapBootstrapFile(settings.rdapBootstrapFile);
    setRdapBootstrap(bootstrap);
    logger.info(
      { file: settings.rdapBootstrapFile, publication: bootstrap.publication, tlds: bootstrap.servers.size },
      'RDAP bootstrap registry read',
    );
  }
  // Prometheus metrics, when asked for (WARDEN_METRICS_TOKEN or _PORT): prom-client is loaded only then.
  const metrics: WardenMetrics | undefined = settings.metrics
    ? (await import('./metrics/metrics.js')).createMetrics()
    : undefined;
  // The environment's SMTP server wins over the file's; the password is never logged.
  const smtp: SmtpSettings | undefined = settings.smtp ?? fileConfig?.smtp;
  if (smtp)
    logger.info(
      { smtp: describeSmtp(smtp), source: settings.smtp ? 'WARDEN_SMTP_URL' : 'warden.yaml' },
      'system SMTP server set',
    );
  return {
    settings,
    clock,
    logger,
    fileConfig,
    metrics,
    smtp,
    domains,
    baseUrl: settings.baseUrl ?? '',
    ready: false,
    redis: null,
    metricsListener: null,
    port: 0,
    url: '',
    applied: { syncReport: null, demoPushToken: null, demoRetired: false },
    stopDemo: () => {},
  };
}

/** The database (opened, watched, migrated) and, in cluster mode, Redis. */
function storeParts(boot: Boot, open: typeof openStore): Part[] {
  const { settings, logger, clock } = boot;
  const store = () => made(boot.store, 'the store');
  const parts: Part[] = [
    {
      name: 'store',
      start: async () => {
        boot.store = await open(settings);
        boot.metrics?.watchDatabasePool(() => store().poolUse());
      },
      stop: () => boot.store?.close(),
    },
    // One line when the database stops storing (full, unreachable) and one when it stores again (docs/operations.md, Faults).
    {
      name: 'storage-watch',
      start: () => {
        boot.storageWatch = watchStorage({ store: store(), logger, clock });
      },
      stop: () => boot.storageWatch?.stop(),
    },
    {
      name: 'migrate',
      start: async () => {
        const migrations = await store().migrate();
        logger.info(
          { database: store().location, applied: migrations.applied, current: migrations.current },
          'database ready',
        );
      },
      stop: () => {},
    },
  ];
  // Cluster mode: events between the processes and the shared limits go through Redis (it may be away: they cope).
  // ioredis is loaded only then.
  const { cluster } = settings;
  if (cluster)
    parts.push({
      name: 'redis',
      start: async () => {
        boot.redis = (await import('./cluster/redis.js')).connectRedis(cluster.redisUrl, {
          instanceId: cluster.instanceId,
          logger,
        });
      },
      stop: () => boot.redis?.close(),
    });
  return parts;
}

/** Every service built around the store (src/compose/services.ts); nothing runs until the runners' parts start. */
function servicesPart(boot: Boot): Part {
  const { settings, fileConfig } = boot;
  const { cluster } = settings;
  return {
    name: 'services',
    start: () => {
      const { redis } = boot;
      boot.services = composeServices({
        store: made(boot.store, 'the store'),
        clock: boot.clock,
        logger: boot.logger,
        baseUrl: () => boot.baseUrl,
        localSetupUrl: () => boot.localSetup?.url ?? null,
        isReady: () => boot.ready,
        concurrency: settings.concurrency,
        retention: { checkDays: settings.checkRetentionDays, bucketDays: settings.bucketRetentionDays },
        apiRateLimitPerMinute: settings.apiRateLimitPerMinute,
        security: settings.security,
        domains: { ...(settings.dnsServers ? { dnsServers: settings.dnsServers } : {}), ...boot.domains },
        smtp: boot.smtp,
        // The file's organization key is the operator's: no sign-up may take it (domain/organization.ts).
        accounts: fileConfig
          ? { ...settings.accounts, fileOrganizationKey: fileConfig.organization.key }
          : settings.accounts,
        cluster: cluster && {
          instanceId: cluster.instanceId,
          ttlMs: cluster.leaseTtlMs,
          info: () => ({ version: WARDEN_VERSION, url: boot.baseUrl }),
        },
        redis: redis && cluster && { connections: redis, prefix: cluster.redisPrefix, instanceId: cluster.instanceId },
        metrics: boot.metrics,
        metricsToken: settings.metrics?.token,
        logRequests: settings.logRequests,
        pageCacheBytes: settings.pageCacheMb * 1024 * 1024,
      });
      const { pages } = boot.services;
      boot.metrics?.watchPageCache(() => pages.rendered().bytes);
    },
    // The outbox's timers, then the bus (cluster mode: its Redis subscription).
    stop: async () => {
      boot.services?.outbox.close();
      await boot.services?.bus.close();
    },
  };
}
