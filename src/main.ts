// Composition root: settings → store → bus → services → http, and an orderly shutdown in reverse.
// First: it extends zod with .openapi(), which must happen before any schema is created.
import '@hono/zod-openapi';

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Bus, createInProcessBus } from './bus/bus.js';
import type { WardenEvent } from './bus/events.js';
import { createRedisBus } from './bus/redis-bus.js';
import { createActivityPoll } from './cluster/activity-poll.js';
import { type Coordinator, type CoordinatorDeps, createCoordinator } from './cluster/coordinator.js';
import type { RedisConnections } from './cluster/redis.js';
import { createSharedApiLimiter, createSharedAttempts, createSharedLoginAttempts, createSharedPushLimiter, createSharedSystemMailLimiter } from './cluster/shared-limits.js';
import { applyConfig, type SyncReport } from './config/apply.js';
import { DEMO_ORGANIZATION_KEY, demoConfig, startDemoHeartbeat } from './config/demo.js';
import type { ConfigFile } from './config/file-schema.js';
import type { AccountSettings, Settings } from './config/settings.js';
import { ACCOUNT_LIMITS } from './domain/account.js';
import { type Clock, systemClock } from './domain/clock.js';
import { LEASE_DEFAULTS, type Singleton } from './domain/cluster.js';
import { SECURITY_DEFAULTS, type SecurityOptions } from './domain/security.js';
import { SYSTEM_MAIL_LIMITS, type SystemMailLimits } from './domain/system-mail.js';
import { generateSecret } from './domain/tokens.js';
import type { App, AppDeps } from './http/app.js';
import { answerUnreadableRequests, requiringHost } from './http/client-error.js';
import { attachLiveStream } from './http/live.js';
import { listenForMetrics, METRICS_PATH, type MetricsListener } from './http/metrics.js';
import { createRequestListener, type FastPath } from './http/pre-router.js';
import { gateUntilReady } from './http/readiness-gate.js';
import { healthFastPath } from './http/routes/health.js';
import { pushFastPath } from './http/routes/push/fast-path.js';
import { pageFastPath } from './http/routes/status/fast-path.js';
import { createLogger, type Logger } from './logger.js';
import type { WardenMetrics } from './metrics/recorder.js';
import { CHANNELS } from './notify/channels/registry.js';
import { createDispatcher } from './notify/dispatch/dispatcher.js';
import { createRulesGate } from './notify/dispatch/rules-gate.js';
import { createSubscriberTargets } from './notify/dispatch/subscriber-targets.js';
import { describeSmtp, type SmtpSettings } from './notify/mail/smtp.js';
import { createSystemMail } from './notify/mail/system-mail.js';
import { createSystemMailLimiter } from './notify/mail/system-mail-limits.js';
import { createNotificationOutbox } from './notify/outbox/outbox.js';
import { loadRdapBootstrapFile, setRdapBootstrap } from './probes/rdap-bootstrap.js';
import { createChangeWatch } from './runner/change-watch.js';
import { createDomainRecheck } from './runner/domain-recheck.js';
import { createIngest } from './runner/ingest.js';
import { createMaintenanceNotices } from './runner/maintenance-notices.js';
import { createNotifyReminders } from './runner/notify-reminders.js';
import { createRetention, RETENTION_DEFAULTS } from './runner/retention.js';
import { createScheduler } from './runner/scheduler.js';
import { watchStorage } from './runner/storage-watch.js';
import { createTxtLookup } from './runner/txt-lookup.js';
import { createWatchdog } from './runner/watchdog.js';
import { codeCacheState } from './runtime/launcher.js';
import { openSetupLink } from './services/accounts/setup.js';
import { createSignInAttempts } from './services/accounts/sign-in-attempts.js';
import { createSignupAttempts, SIGNUP_WINDOW_MS } from './services/accounts/signup-attempts.js';
import { API_LIMITS } from './services/api-limits.js';
import type { ServiceContext } from './services/context.js';
import { listOrganizations } from './services/organizations/resolve.js';
import { announcePages } from './services/pages/announce-pages.js';
import { createPageAccess } from './services/pages/page-access.js';
import { createPageCache } from './services/pages/page-cache.js';
import { announcePushTokens } from './services/push/announce-push-tokens.js';
import { createPushRateLimiter, type PushRateLimiter } from './services/push/rate-limit.js';
import { createPushTokenCache } from './services/push/token-cache.js';
import type { Store } from './store/index.js';
import { openStore } from './store/open-store.js';

/** This build's version, told to the other instances of a cluster (`warden cluster status`). */
const WARDEN_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Whole shutdown budget; the CLI exits forcibly past it. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

export interface StartOptions {
  settings: Settings;
  /** Custom-domain verification: DNS servers and re-check period (tests point them at a fake DNS server). */
  domains?: DomainOptions | undefined;
  clock?: Clock;
  logger?: Logger;
  /** Opens the database from the settings; tests wrap it (test/fakes/held-store.ts holds the start-up back). */
  openStore?: typeof openStore;
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

export async function startWarden({ settings, clock = systemClock, logger: given, domains, openStore: open = openStore }: StartOptions): Promise<Warden> {
  const logger = given ?? createLogger(settings.logLevel, undefined, { format: settings.logFormat });
  // Fail fast on a bad config file, before touching the database or the port.
  const fileConfig: ConfigFile | null = settings.configFile
    ? // The YAML reader only when there is a file: the demo and a database-held configuration do without it.
      await (await import('./config/load.js')).loadConfigFile(settings.configFile)
    : null;
  // A newer copy of IANA's RDAP bootstrap registry (domain-expiry monitors): a file that is not one stops the start here.
  if (settings.rdapBootstrapFile) {
    const bootstrap = loadRdapBootstrapFile(settings.rdapBootstrapFile);
    setRdapBootstrap(bootstrap);
    logger.info({ file: settings.rdapBootstrapFile, publication: bootstrap.publication, tlds: bootstrap.servers.size }, 'RDAP bootstrap registry read');
  }
  // Prometheus metrics, when asked for (WARDEN_METRICS_TOKEN or _PORT): prom-client is loaded only then.
  const metrics: WardenMetrics | undefined = settings.metrics ? (await import('./metrics/metrics.js')).createMetrics() : undefined;

  const store = await open(settings);
  metrics?.watchDatabasePool(() => store.poolUse());
  // One line when the database stops storing (full, unreachable) and one when it stores again (docs/operations.md, Faults).
  const storageWatch = watchStorage({ store, logger, clock });
  let ready = false;
  try {
    const migrations = await store.migrate();
    logger.info({ database: store.location, applied: migrations.applied, current: migrations.current }, 'database ready');
  } catch (error) {
    await store.close();
    throw error;
  }
  const baseUrlHolder = { value: settings.baseUrl ?? '' };
  // The environment's SMTP server wins over the file's; the password is never logged.
  const smtp: SmtpSettings | undefined = settings.smtp ?? fileConfig?.smtp;
  if (smtp) logger.info({ smtp: describeSmtp(smtp), source: settings.smtp ? 'WARDEN_SMTP_URL' : 'warden.yaml' }, 'system SMTP server set');
  // Cluster mode: events between the processes and the shared limits go through Redis (it may be away: they cope).
  // ioredis is loaded only then.
  const clusterRedis = settings.cluster ? await import('./cluster/redis.js') : null;
  const redis = settings.cluster && clusterRedis ? clusterRedis.connectRedis(settings.cluster.redisUrl, { instanceId: settings.cluster.instanceId, logger }) : null;
  const parts = composeServices({
    store,
    clock,
    logger,
    baseUrl: () => baseUrlHolder.value,
    isReady: () => ready,
    concurrency: settings.concurrency,
    retention: { checkDays: settings.checkRetentionDays, bucketDays: settings.bucketRetentionDays },
    apiRateLimitPerMinute: settings.apiRateLimitPerMinute,
    security: settings.security,
    domains: { ...(settings.dnsServers ? { dnsServers: settings.dnsServers } : {}), ...domains },
    smtp,
    // The file's organization key is the operator's: no sign-up may take it (domain/organization.ts).
    accounts: fileConfig ? { ...settings.accounts, fileOrganizationKey: fileConfig.organization.key } : settings.accounts,
    cluster: settings.cluster && {
      instanceId: settings.cluster.instanceId,
      ttlMs: settings.cluster.leaseTtlMs,
      info: () => ({ version: WARDEN_VERSION, url: baseUrlHolder.value }),
    },
    redis: redis && settings.cluster && { connections: redis, prefix: settings.cluster.redisPrefix, instanceId: settings.cluster.instanceId },
    metrics,
    metricsToken: settings.metrics?.token,
    logRequests: settings.logRequests,
    pageCacheBytes: settings.pageCacheMb * 1024 * 1024,
  });
  const { bus, ingest, pages, fastPaths, scheduler, watchdog, retention } = parts;
  // The router, the API, OpenAPI, MCP and the dashboard's routes: built by the first request the fast paths leave to
  // it (a page not in memory yet, an API call, /healthz through the app when the fast paths are off).
  const app = async (): Promise<App> => {
    const built = (await import('./http/app.js')).createApp(parts.appDeps);
    logger.debug('HTTP app built');
    return built;
  };
  metrics?.watchPageCache(() => pages.rendered().bytes);

  // WARDEN_FAST_PATH=0: every request through the app (the pre-router's answers are the app's, byte for byte).
  // Requests the parser refuses, or that lack a Host, get problem+json like every other error (http/client-error.ts).
  const listener = createRequestListener(app, { fastPaths: settings.fastPath ? fastPaths : [], logger, logRequests: settings.logRequests, metrics });
  const server = createServer({ requireHostHeader: false });
  // Until ready (below), every request but /healthz and /readyz is answered 503, Retry-After, no-store (readiness-gate.ts).
  const gate = gateUntilReady(server, requiringHost(listener), { logger, metrics });
  answerUnreadableRequests(server);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  // The live streams (WS /s/{slug}/live, and the dashboard's WS /api/v1/live) upgrade on the same server.
  const live = attachLiveStream(server, { pages, pageAccess: parts.pageAccess, clock, logger, security: parts.security, organizations: parts.context, isReady: gate.isOpen });
  metrics?.watchLiveClients(() => live.connections());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host}:${port}`;
  baseUrlHolder.value = (settings.baseUrl ?? url).replace(/\/+$/, '');

  let syncReport: SyncReport | null = null;
  let demoPushToken: string | null = null;
  let metricsListener: MetricsListener | null = null;
  try {
    // WARDEN_METRICS_PORT: /metrics without a token on a port of its own (the token, if any, is never logged).
    if (metrics && settings.metrics?.port !== undefined) {
      metricsListener = await listenForMetrics(metrics, { host: settings.host, port: settings.metrics.port, logger });
      logger.info({ port: metricsListener.port }, `metrics served on port ${metricsListener.port} at ${METRICS_PATH}`);
    }
    if (metrics && settings.metrics?.token !== undefined) logger.info(`metrics served at ${url}${METRICS_PATH} to a bearer of WARDEN_METRICS_TOKEN`);
    // Without a config file the demo is loaded into an empty database only: once an organization exists (made by
    // `warden config apply`, say), the server serves what the database holds and leaves it alone.
    const demo = !fileConfig && (await holdsOnlyTheDemo(parts.context));
    if (demo) demoPushToken = generateSecret('pushToken');
    if (fileConfig || demo) syncReport = await applyConfig(parts.context, fileConfig ?? demoConfig(port, demoPushToken ?? undefined));
  } catch (error) {
    await metricsListener?.close();
    await live.close();
    server.close();
    await parts.bus.close();
    await redis?.close();
    await store.close();
    throw error;
  }
  if (syncReport) logSync(logger, syncReport, fileConfig ? settings.configFile : 'built-in demo');
  else logger.info('no config file: serving the organizations the database holds');
  // Writes committed by another process from now on are seen by the poll; what came before, the caches load now.
  await parts.changeWatch.prime();
  await pages.start();
  // Cluster mode: this instance's shards and singletons first, so the scheduler starts with its share.
  await parts.coordinator?.start();
  await scheduler.start();
  watchdog.start();
  parts.reminders.start();
  retention.start();
  parts.maintenanceNotices.start();
  parts.domainRecheck.start();
  await parts.changeWatch.start();
  if (parts.activityPoll) {
    // Subscribed before serving, so a client of this process gets what others publish from the start (or, Redis
    // unreachable now, the poll delivers it until it is reachable).
    if (clusterRedis) await parts.redisBus?.subscribed(clusterRedis.REDIS_DEFAULTS.connectTimeoutMs);
    parts.activityPoll.start();
  }
  parts.dispatcher.start();
  gate.open();
  const stopDemo = demoPushToken
    ? startDemoHeartbeat(`http://127.0.0.1:${port}`, demoPushToken, (error) => logger.debug({ err: error }, 'demo heartbeat failed'))
    : () => {};
  ready = true;
  // The Open Graph image's layout engine and fonts (~300 ms of CPU, ~30 MiB) are loaded by the first og.png asked for, not
  // warmed up ahead: a server whose pages are never shared never holds them (docs/operations.md, Memory).
  const codeCache = codeCacheState();
  logger.info({ url, config: settings.configFile ?? (demoPushToken ? 'built-in demo' : 'none'), ...(codeCache ? { codeCache } : {}) }, `Warden is listening on ${url}`);
  announcePages(logger, pages.pages(), baseUrlHolder.value);
  // Heartbeat monitors warden.yaml gave no pushToken: their new URLs, whose token appears nowhere else.
  if (syncReport) announcePushTokens(logger, syncReport.generatedPushTokens, baseUrlHolder.value);
  await announceSetupLink(parts.context, logger);

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    store,
    logger,
    syncReport,
    close() {
      closing ??= (async () => {
        ready = false;
        stopDemo();
        logger.info('shutting down: no new connections, finishing requests in flight');
        // Live sockets first: server.close() would otherwise wait for them.
        await live.close();
        await metricsListener?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await scheduler.stop();
        await pages.stop();
        await Promise.all([watchdog.stop(), parts.reminders.stop(), retention.stop(), parts.maintenanceNotices.stop(), parts.domainRecheck.stop(), parts.changeWatch.stop(), parts.activityPoll?.stop()]);
        await ingest.close();
        // Cluster mode: the checks in flight are committed; hand the leases back so peers resume at once, not a TTL later.
        await parts.coordinator?.stop();
        // Sends in flight get a short grace (DISPATCH_DEFAULTS.stopGraceMs, 2 s of the shutdown budget) to finish and be
        // acknowledged; the claims of the rest are released, so they are sent at once after the restart (kill -9: the lease lapses).
        await parts.dispatcher.stop();
        parts.outbox.close();
        await bus.close();
        await redis?.close();
        storageWatch.stop();
        await store.close();
        logger.info('shutdown complete');
        logger.flush();
      })();
      return closing;
    },
  };
}

export interface ComposeOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  baseUrl: () => string;
  isReady?: () => boolean;
  concurrency?: number;
  retention?: { checkDays: number; bucketDays: number };
  apiRateLimitPerMinute?: number;
  /** Per-client, per-token and per-tenant limits; SECURITY_DEFAULTS for what is not given. */
  security?: Partial<SecurityOptions>;
  domains?: DomainOptions | undefined;
  /** The system SMTP server (WARDEN_SMTP_URL, or `smtp:` in warden.yaml): page subscribers' mail, email channels without a host. */
  smtp?: SmtpSettings | undefined;
  /** The limits of mail through the system SMTP server: SYSTEM_MAIL_LIMITS for what is not given (tests make them small). */
  systemMailLimits?: Partial<SystemMailLimits> | undefined;
  /** Prometheus metrics (metrics/metrics.ts, a registry of this app's own): what the parts count; absent, nothing is counted. */
  metrics?: WardenMetrics | undefined;
  /** WARDEN_METRICS_TOKEN: the main port's GET /metrics answers its bearer; absent, it is not served there. */
  metricsToken?: string | undefined;
  /** LOG_REQUESTS=1: one info line per answered request. */
  logRequests?: boolean | undefined;
  /** WARDEN_PAGE_CACHE_MB in bytes: what the rendered forms of every page may hold together; 64 MiB when absent. */
  pageCacheBytes?: number | undefined;
  /** Who may sign up and the OpenID Connect provider (WARDEN_SIGNUP, WARDEN_OIDC_*); invitations only, no provider, when absent. */
  accounts?: AccountSettings | undefined;
  /**
   * Cluster mode (docs/cluster.md): the coordinator shares the edge monitors and the singleton runners out by leases;
   * absent, this process runs them all.
   */
  cluster?: Pick<CoordinatorDeps, 'instanceId' | 'ttlMs' | 'roundMs' | 'info'> | undefined;
  /**
   * Cluster mode: events cross processes over Redis pub/sub (on `<prefix>:events`) and the API, push and login limits
   * count across processes; absent (or null), events stay in this process and each limit counts here.
   */
  redis?: { connections: RedisConnections; prefix: string; instanceId: string } | null | undefined;
}

export interface DomainOptions {
  /** DNS servers ("ip" or "ip:port") the verification TXT lookups ask; the system's resolvers when absent. */
  dnsServers?: readonly string[] | undefined;
  /** How old a verified API domain's last lookup may get before it is looked up again; a day by default. */
  recheckEveryMs?: number | undefined;
}

/**
 * Builds every service around a store, without starting timers or listening, and what the HTTP app is built from
 * (`appDeps`): the server builds the app on the first request its fast paths leave to it; tests build it at once
 * (composeWarden, src/compose.ts).
 */
export function composeServices(options: ComposeOptions) {
  const { store, clock, logger } = options;
  const security: SecurityOptions = { ...SECURITY_DEFAULTS, ...options.security };
  const coordinator: Coordinator | null = options.cluster ? createCoordinator({ store, clock, logger, ...options.cluster }) : null;
  /** A singleton runner sweeps only on the instance holding its lease; in one process, always. */
  const gate = (singleton: Singleton) => (coordinator ? () => coordinator.holds(singleton) : undefined);
  const onHandlerError = (error: unknown, event: WardenEvent) => logger.error({ err: error, event: event.type }, 'event handler failed');
  const { redis } = options;
  const redisBus = redis
    ? createRedisBus({ publisher: redis.connections.commands, subscriber: redis.connections.subscriber, channel: `${redis.prefix}:events`, instanceId: redis.instanceId, logger, onHandlerError })
    : null;
  const bus: Bus = redisBus ?? createInProcessBus(onHandlerError);
  const shared = redis && { redis: redis.connections.commands, prefix: redis.prefix, logger };
  // Email channels on the system SMTP server: who may, whose recipients confirm first, and how much (shared in a cluster).
  const systemMailLimits: SystemMailLimits = { ...SYSTEM_MAIL_LIMITS, ...options.systemMailLimits };
  const localMailLimiter = createSystemMailLimiter(systemMailLimits);
  const systemMail = createSystemMail({
    store,
    clock,
    logger,
    smtp: options.smtp,
    mode: security.smtpTenants,
    baseUrl: options.baseUrl,
    limits: systemMailLimits,
    limiter: shared ? createSharedSystemMailLimiter(localMailLimiter, { ...shared, limits: systemMailLimits }) : localMailLimiter,
  });
  // The outbox is written in ingest's commits and the verbs' transactions; the dispatcher sends it, woken at once by a commit.
  // The gate: what only send time can judge (a held state that did not hold, a recovery after an alert not sent).
  const dispatcher = createDispatcher({
    store,
    clock,
    logger,
    channels: CHANNELS,
    gate: createRulesGate({ store }),
    // Page subscribers' deliveries: mail through the system SMTP server, webhooks like channels.
    subscribers: createSubscriberTargets({ store, baseUrl: options.baseUrl }),
    smtp: options.smtp,
    // Every channel and subscriber webhook connects under its organization's probe-target policy.
    privateTargets: security.probePrivateTargets,
    systemMail,
    metrics: options.metrics,
  });
  const outbox = createNotificationOutbox({ bus, clock, baseUrl: options.baseUrl, onCommitted: () => dispatcher.wake() });
  const context: ServiceContext = {
    store,
    bus,
    clock,
    logger,
    notify: outbox,
    smtp: options.smtp,
    systemMail,
    metrics: options.metrics,
    get baseUrl() {
      return options.baseUrl();
    },
  };
  const ingest = createIngest({ ...context, outbox });
  // Wrong page passwords and wrong account passwords and codes are counted alike (cluster mode: in Redis, by key).
  const sharedLogins = shared ? createSharedLoginAttempts({ ...shared, perMinute: security.loginAttemptsPerMinute }) : undefined;
  const pageAccess = createPageAccess({ attemptsPerMinute: security.loginAttemptsPerMinute, shared: sharedLogins });
  const signInAttempts = createSignInAttempts({ perMinute: security.loginAttemptsPerMinute, shared: sharedLogins });
  const signupAttempts = createSignupAttempts({
    shared: shared ? createSharedAttempts({ ...shared, kind: 'signup', points: ACCOUNT_LIMITS.signupsPerClientPerHour, windowSec: SIGNUP_WINDOW_MS / 1000 }) : undefined,
  });
  const pages = createPageCache({ ...context, baseUrl: options.baseUrl, renderBytes: options.pageCacheBytes });
  const pushTokens = createPushTokenCache(context);
  const domainTxt = createTxtLookup({ servers: options.domains?.dnsServers });
  // One limiter for both push paths (pre-router and app), so a token's rate is the same whichever answers it.
  const localPushLimiter = createPushRateLimiter({ perSecond: security.pushPerSecond, burst: security.pushBurst });
  const pushLimiter: PushRateLimiter = shared ? createSharedPushLimiter(localPushLimiter, shared) : localPushLimiter;
  const appDeps: AppDeps = {
    ...context,
    ingest,
    pages,
    pageAccess,
    pushTokens,
    domainTxt,
    pushLimiter,
    get baseUrl() {
      return options.baseUrl();
    },
    isReady: options.isReady ?? (() => true),
    security,
    signInAttempts,
    signupAttempts,
    ...(options.apiRateLimitPerMinute ? { apiRateLimitPerMinute: options.apiRateLimitPerMinute } : {}),
    ...(shared
      ? { apiRateLimiter: createSharedApiLimiter({ ...shared, requests: options.apiRateLimitPerMinute ?? API_LIMITS.rateLimit.requests, windowMs: API_LIMITS.rateLimit.windowMs }) }
      : {}),
    ...(options.retention ? { checkRetentionDays: options.retention.checkDays } : {}),
    ...(coordinator ? { clusterView: () => coordinator.status() } : {}),
    ...(options.accounts ? { accounts: options.accounts } : {}),
    metricsToken: options.metricsToken,
    logRequests: options.logRequests,
  };
  const fastPaths: FastPath[] = [
    healthFastPath({ ...context, isReady: appDeps.isReady, clusterView: appDeps.clusterView }),
    pushFastPath({ ...context, ingest, pushTokens, pushLimiter }),
    pageFastPath(pages),
  ];
  const scheduler = createScheduler({
    ...context,
    ingest,
    probePrivateTargets: security.probePrivateTargets,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(coordinator ? { owns: coordinator.owns } : {}),
  });
  // Shards moved: monitors newly owned start, those handed back are dropped (their checks in flight recorded first).
  coordinator?.onShardsChanged(() => scheduler.reload());
  // A failover (a lease lapsing, then the next round taking it) must not pass for silence: twice the lease time of grace.
  const watchdog = createWatchdog({ ...context, ingest, gate: gate('watchdog'), staleGraceMs: options.cluster ? 2 * (options.cluster.ttlMs ?? LEASE_DEFAULTS.ttlMs) : 0 });
  // Reminders and flap summaries, published like any event (notify-outbox) on their stable ids.
  const reminders = createNotifyReminders({ ...context, gate: gate('notify-reminders') });
  const retention = createRetention({ ...context, ...(options.retention ?? RETENTION_DEFAULTS), gate: gate('retention') });
  const maintenanceNotices = createMaintenanceNotices({ ...context, gate: gate('maintenance-notices') });
  const domainRecheck = createDomainRecheck({ ...context, domainTxt, everyMs: options.domains?.recheckEveryMs, gate: gate('domain-recheck') });
  // Another process's committed writes (the counter moved): reload what this one keeps in memory.
  const changeWatch = createChangeWatch({
    store,
    logger,
    everyMs: security.changePollMs,
    onChange: async () => {
      pushTokens.clear();
      outbox.invalidate();
      await Promise.all([pages.refreshAll(), scheduler.reload()]);
    },
  });
  // Redis away: the other processes' monitor results are polled from PostgreSQL, so live streams keep updating.
  const activityPoll = redisBus ? createActivityPoll({ store, bus: redisBus, pages, clock, logger, everyMs: security.changePollMs }) : null;
  return { context, security, appDeps, bus, redisBus, activityPoll, ingest, outbox, dispatcher, pages, pageAccess, pushTokens, pushLimiter, fastPaths, scheduler, watchdog, reminders, retention, maintenanceNotices, domainTxt, domainRecheck, changeWatch, coordinator };
}


/**
 * First run (no account yet): a new one-time setup link, logged this once — the only place its token ever appears.
 * Once any user exists, nothing is logged.
 */
async function announceSetupLink(context: ServiceContext, logger: Logger): Promise<void> {
  try {
    const setup = await openSetupLink(context);
    if (setup)
      logger.warn(
        `No account exists yet: open ${setup.url} within ${Math.round((setup.expiresAt - context.clock.now()) / 60_000)} minutes to create the owner (or run \`warden users create --role owner\`)`,
      );
  } catch (error) {
    logger.error({ err: error }, 'making the first-run setup link failed');
  }
}

/** Nothing, or the built-in demo alone (one the demo's apply made: a `demo` someone registered is theirs, not re-applied). */
async function holdsOnlyTheDemo(context: ServiceContext): Promise<boolean> {
  return (await listOrganizations(context)).every((organization) => organization.key === DEMO_ORGANIZATION_KEY && organization.managedBy === 'config');
}

function logSync(logger: Logger, report: SyncReport, source: string | undefined): void {
  logger.info(
    {
      source,
      organization: report.organization.key,
      created: report.created,
      updated: report.updated,
      deleted: report.deleted,
      unchanged: report.unchanged,
    },
    'configuration applied',
  );
}
